#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the fourteenth build's sessions: Claude Code sessions and
Codex CLI rollouts that the Entire CLI kept on the entire/checkpoints/v1 branch of more projects,
taken as agents11.py takes them (its build and sessions_of: each session once, its longest copy in
the snapshot, the agent read from the transcript's own lines, Copilot, Gemini and OpenCode
transcripts and files without a message not taken). Same record shape, string cut and compression
as agents2.py; a repository's sessions all in one half (the record's group is the source's name,
split by agents.split_of), at most agents11.MAX_SESSIONS a source, the first in path order of the
copy taken. Records of other builds are kept as written; manifest.json gets one entry per file
taken. Run it after agents12.py.

    python3 testdata/eval/agents14.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

The projects were found through files the Entire CLI writes into a repository it is enabled in
(.entire/settings.json, .entire/.gitignore, the OpenCode plugin .opencode/plugins/entire.ts) and
among the Entire company's own repositories; none is in an earlier build. As in agents11.py the
branch holds no licence file, so the licence is read on the default branch at LICENCE_COMMIT, its
newest commit before the checkpoint commit taken, and kept in licenses/<source>.txt.

Two of the projects added their licence after their checkpoint branch had begun, and their
branches carry sessions recorded before it. So a session is taken only if it was recorded under
the licence: its earliest line's timestamp is not before the commit that added the licence file to
the default branch (LICENCE_ADDED, the commit and its committer date). For the other two the
licence is older than the branch's first checkpoint, and the check drops nothing.

A session holding a real credential is left out (WITH_CREDENTIALS, checked by hand), and a
repository whose sessions are not covered by a licence, or may hold other people's private data,
is not among the SOURCES at all (see the eval README)."""
import argparse
import datetime
import json

import agents11


# source: (repository, checkpoint commit, licence, licence file, licence commit)
SOURCES = {
    "starcar": ("polecatspeaks/StarCar", "c1dbef906e331aa1742a1e653923fb767ab125e8", "MIT", "LICENSE",
                "1246f87279ef6c244eb94d2d6579debbc70dd180"),
    "chkit": ("obsessiondb/chkit", "8ae9093f4c23a92cc74a774bef7166e96a67a238", "MIT", "LICENSE",
              "3c2e45ff2c32b0a5ca77803062f74a06a5190ad9"),
    "git-sync": ("entireio/git-sync", "8e24a4e9214edf84e753675e5c3ebe0f60e15264", "MIT", "LICENSE",
                 "1e91421850cbf68ce7ddfe44afd289de77a66631"),
    "entire-graph": ("entireio/entire-graph", "7789048c1f7b7d311939f8021a5572699d598676", "MIT", "LICENSE",
                     "0c4613f52f24ec3d65ae2ba0dd566b711caf094e"),
}
# source: (commit that added the licence file to the default branch, its committer date)
LICENCE_ADDED = {
    "starcar": ("7fac619ea70d20a42f818ee9fb1aa4390ee67372", "2026-07-21T17:52:08-04:00"),
    "chkit": ("e63d54d02a1c7a9862fe4e90af1023803a252163", "2026-02-19T11:08:20+02:00"),
    "git-sync": ("c4549ae6b5a05db574ae02659ca1aab9dda36c4c", "2026-04-29T17:59:04+02:00"),
    "entire-graph": ("6c5bbf650be322bc205c1c3ae147a88423ab7139", "2026-05-28T08:38:45-04:00"),
}
# Sessions that hold real credentials (checked by hand), left out, by their session's id.
WITH_CREDENTIALS = set()


def started(data):
    """The earliest timestamp among a transcript's lines, or None."""
    first = None
    for line in data.split("\n"):
        try:
            v = json.loads(line)
        except ValueError:
            continue
        t = v.get("timestamp") if isinstance(v, dict) else None
        if not isinstance(t, str):
            continue
        try:
            at = datetime.datetime.fromisoformat(t.replace("Z", "+00:00"))
        except ValueError:
            continue
        if at.tzinfo is not None and (first is None or at < first):
            first = at
    return first


def under_licence(src, data):
    at = started(data)
    return at is not None and at >= datetime.datetime.fromisoformat(LICENCE_ADDED[src][1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    agents11.build(SOURCES, ap.parse_args().mirror, WITH_CREDENTIALS, report_found=True, keep=under_licence)


if __name__ == "__main__":
    main()
