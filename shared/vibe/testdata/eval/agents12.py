#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the twelfth build's sessions: Claude Code sessions and Codex
CLI rollouts that the Entire CLI kept on the entire/checkpoints/v1 branch of more projects, taken
as agents11.py takes them (its sessions_of: each session once, its longest copy in the snapshot,
the agent read from the transcript's own lines, Copilot and Gemini transcripts and files without a
message not taken). Same record shape, string cut and compression as agents2.py; a repository's
sessions all in one half (the record's group is the source's name, split by agents.split_of), at
most agents11.MAX_SESSIONS a source, the first in path order of the copy taken. Records of other builds are
kept as written; manifest.json gets one entry per file taken. Run it after agents11.py.

    python3 testdata/eval/agents12.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

The projects were found through checkpoint files in the code index (a checkpoint's context.md,
"# Session Context") and the repositories holding .entire/settings.json; none is in an earlier
build. As in agents11.py the branch holds no licence file, so the licence is read on the default
branch at LICENCE_COMMIT, its newest commit before the checkpoint commit taken, and the same file
was checked present at the default branch's newest commit before the branch's first checkpoint.
It is kept in licenses/<source>.txt. A session holding a real credential is left out
(WITH_CREDENTIALS, checked by hand), and a repository whose sessions hold one is not among the
SOURCES at all (Viniciuscarvalho/FitToday, Apache-2.0: a session of its checkpoint branch holds a
payment vendor's secret API key written into the app's code)."""
import argparse

import agents
import agents11


# source: (repository, checkpoint commit, licence, licence file, licence commit)
SOURCES = {
    "cipher-box": ("FSM1/cipher-box", "e227f1183b594fa6bd5dbe58c75272434067e89b", "MIT", "LICENSE",
                   "881d79df0bbc1c7be61fc3f8e571cbf9e7d59143"),
    "duet": ("tslateman/duet", "d6a3fd432a52f58c8d39189d202bcf99d52150a0", "MIT", "LICENSE",
             "104de384ca9319847ef33f00d821057901bf65b3"),
    "rekap": ("alexinslc/rekap", "f525ffee6b65741462ef5baec4b207f9ec981eb0", "MIT", "LICENSE",
              "03a7186db296c9e52fdeda57727d7d61365ee499"),
    "agent-stuff": ("ujuc/agent-stuff", "5296353a932ec672a06bf9a360102e54690353d1", "MIT", "LICENSE",
                    "19c52e12cf8d568bc5fe1266921f42cb3a448bd4"),
}
# Sessions that hold real credentials (checked by hand), left out, by their session's id.
WITH_CREDENTIALS = set()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    agents11.build(SOURCES, ap.parse_args().mirror, WITH_CREDENTIALS, report_found=True)


if __name__ == "__main__":
    main()
