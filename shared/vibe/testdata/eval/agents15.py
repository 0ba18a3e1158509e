#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the fifteenth build's sessions: Claude Code sessions and
Codex CLI rollouts that the Entire CLI kept beside six more projects' code. Five keep them on the
entire/checkpoints/v1 branch and are taken with agents11.py's build (each session once, its
longest copy in the snapshot, the agent read from the transcript's own lines, Copilot, Gemini and
OpenCode transcripts and files without a message not taken). The sixth keeps them one ref a
checkpoint, as agents13.py's refs source does, but under the Entire CLI's later checkpoint ids: a
ULID of 26 upper-case base-32 characters, the ref named by its last two
(refs/entire/checkpoints/<id[-2:]>/<id>, each commit holding <n>/full.jsonl beside Entire's
metadata.json, a compact transcript.jsonl and a content hash). Those are read with the same rules
(sessions_of_ulid_refs: each session once, its longest copy among the refs, named
<id[-2:]>/<id>/<n>/full.jsonl, recorded with its own ref's commit). Same record shape, string cut
and compression as agents2.py; a repository's sessions all in one half (the record's group is the
source's name, split by agents.split_of), at most agents11.MAX_SESSIONS a source, the first in
path order of the copy taken. Records of other builds are kept as written; manifest.json gets one
entry per file taken. Run it after agents14.py.

    python3 testdata/eval/agents15.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

The projects were found through a file the Entire CLI writes into a repository it is enabled in,
its log (.entire/logs/entire.log, committed by some projects), the checkpoints' context.md files
in the code index and a search of repository names for "entire"; none is in an earlier build. No
checkpoint holds a licence file, so the licence is read on the default branch at LICENCE_COMMIT,
its newest commit before the newest checkpoint commit taken, and kept in licenses/<source>.txt;
the same file was checked present at the default branch's newest commit before the first
checkpoint. As in agents14.py a session is taken only if it was recorded under the
licence: its earliest line's timestamp is not before the commit that added the licence file now
on the default branch (LICENCE_ADDED, the commit and its committer date). dougnukem/orpheus added
its licence 37 minutes before the branch's first checkpoint, and jeevanpillay/dual its MIT
licence three hours before it, ten days after removing the Apache-2.0 licence it had; the others'
licences are weeks to years older than their branch or refs. The test drops no session of these
six. A session holding a real credential is left out (WITH_CREDENTIALS, checked by hand),
and a repository whose sessions are not covered by a permissive licence is not among the sources
at all (see the eval README)."""
import argparse
import datetime
import re

import agents11
import agents13
import agents14

REFS = "refs/entire/checkpoints/"

# Checkpoints on the entire/checkpoints/v1 branch.
# source: (repository, checkpoint commit, licence, licence file, licence commit)
SOURCES = {
    "cc-backend": ("ClusterCockpit/cc-backend", "aba3a344129b2d25f6749bdf5c01692d9cf3d1c3", "MIT", "LICENSE",
                   "af7528c8b2f3be84a550e441093576f8be49f77b"),
    "orpheus": ("dougnukem/orpheus", "7656bca2a2cf872c166e9c0d5a3f4d604cf10051", "MIT", "LICENSE",
                "7a6b714520a54be4d355a7002c28016b3ab26eec"),
    "tij": ("nakamura-shuta/tij", "b073c1b2556a9d57b7bd2ff6a24e41463bffc053", "MIT", "LICENSE",
            "ae184e94e77b81dfde265d0fcdece30def8f29b3"),
    "langlearn-tts": ("punt-labs/langlearn-tts", "59919ba6544982052a51991c77804b193d8f1b72", "MIT", "LICENSE",
                      "00cf5e8f51587e6f8c7d8d14ceffb91206ec4e39"),
    "dual": ("jeevanpillay/dual", "a5158ee78a029e5c8ec286429deee1d8daf5ec91", "MIT", "LICENSE",
             "303c51d87d3b3aec9268789dcc38ad18489d06d9"),
}
# Checkpoints one ref each under refs/entire/checkpoints/, named by a ULID.
# source: (repository, licence, licence file, licence commit)
ULID_REF_SOURCES = {
    "entirecontext": ("teslamint/entirecontext", "MIT", "LICENSE", "71fad6b78140657242d7e6b5fd9900990d6ed2e2"),
}
# source: (commit that added the licence file to the default branch, its committer date)
LICENCE_ADDED = {
    "cc-backend": ("dee638f4d74973af901b3b681c57a2387a20c51e", "2019-04-27T09:14:33+02:00"),
    "orpheus": ("b143a416f1d82d1e4803d53556fc3838af5332bf", "2026-04-17T00:55:18-05:00"),
    "tij": ("bda69fcc069a20a59325aaab6e359683c8b84cc5", "2026-02-03T15:54:31+09:00"),
    "langlearn-tts": ("0b1517c72b55e682e321e26fe191e38c3f7fa481", "2026-02-08T17:19:34-08:00"),
    "dual": ("3bb16355b211440ff98383c2500e4429ead83c3b", "2026-02-15T18:20:38+11:00"),
    "entirecontext": ("62cd5de308aa7212e9bc31e0b863cc317151a9a7", "2026-02-13T18:11:44+09:00"),
}
# Sessions that hold real credentials (checked by hand), left out, by their session's id.
WITH_CREDENTIALS = set()

ULID_TRANSCRIPT = re.compile(r"^([0-9A-Z]{2})/[0-9A-Z]{24}\1/\d+/full\.jsonl$")


def under_licence(src, data):
    at = agents14.started(data)
    return at is not None and at >= datetime.datetime.fromisoformat(LICENCE_ADDED[src][1])


def sessions_of_ulid_refs(gitdir):
    """Each session's longest copy among the ULID-named checkpoint refs:
    {session id: (path, agent, text, commit)}, path being <id[-2:]>/<id>/<n>/full.jsonl."""
    return agents13.sessions_of_ref_layout(gitdir, lambda cp: True, ULID_TRANSCRIPT)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    mirror = ap.parse_args().mirror
    agents11.build(SOURCES, mirror, WITH_CREDENTIALS, report_found=True, keep=under_licence)
    agents11.build_from(ULID_REF_SOURCES, mirror, WITH_CREDENTIALS, lambda gitdir, src: sessions_of_ulid_refs(gitdir),
                        lambda path: REFS + path.rsplit("/", 2)[0], report_found=True, keep=under_licence)


if __name__ == "__main__":
    main()
