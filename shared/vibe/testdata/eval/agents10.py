#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the tenth build's sessions: Codex CLI rollouts and Claude
Code sessions of projects none of the earlier builds have, taken as agents4.py's were (same record
shape, string cut and compression as agents2.py; a repository's sessions all in one half, the
record's group being the source's name and the SHA-256 rule applied to it, so the held-back half
is projects never looked at). Records of other builds are kept as written; manifest.json gets
one entry per file taken. Run it after agents9.py.

    python3 testdata/eval/agents10.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one with the most sessions and
the licence file present), the licence file checked present at that commit and kept in
licenses/<source>.txt. The homes these projects committed: a CLAUDE_CONFIG_DIR kept in a desktop
agent application's repository (.claude/projects/, its author's test runs on macOS), a home
directory that a documentation repository's automated Claude Code run committed whole
(.claude/projects/ beside .claude.json), a CODEX_HOME kept in a project that runs `codex exec`
in a container (.codex/sessions/), and a fork's CODEX_HOME (karmaterminal/openclaw, a fork of
openclaw keeping its MIT licence). Files without any message and files the snapshot lacks
(4 MB and more) are not taken. A source keeps at most MAX_SESSIONS sessions, the first in path
order. A session holding a real credential is left out (WITH_CREDENTIALS, checked by hand):
DarrenBaldwin07/clerk-rs (MIT) committed one Claude Code session, run by a bot in
/workspace/project, whose tool output printed a GitHub App user access token and its refresh
token (ghu_…, ghr_…); it is its only session, so that repository is not a source here."""
import argparse, re

import agents4

# source: (repository, commit, licence, agent, licence file)
SOURCES = {
    "open-cowork": ("OpenCoworkAI/open-cowork", "c7be768ff48bf4e5d53f9aa4f6b12648946feded", "MIT", "claude-code", "LICENSE"),
    "apify-docs": ("apify/apify-docs", "3255cd229c6f47d713534f16dbf5d77d49a16bb0", "Apache-2.0", "claude-code", "LICENSE"),
    "edgerun": ("edgerun-tech/edgerun", "f350bebcdc809a1623ea77281b67fb8b313c56d5", "Apache-2.0", "codex", "LICENSE"),
    "karmaterminal-openclaw": ("karmaterminal/openclaw", "78b7226d0ba4fd4352758bf89c1ef245a6e426b0", "MIT", "codex", "LICENSE"),
}
MAX_SESSIONS = 10
# Sessions that hold real credentials (checked by hand), left out, by path.
WITH_CREDENTIALS = set()

SESSION = re.compile(r"(^|/)\.codex/sessions/.*/rollout-[^/]*\.jsonl$|(^|/)\.claude/projects/.*\.jsonl$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    agents4.take(ap.parse_args().mirror, SOURCES, SESSION, MAX_SESSIONS, WITH_CREDENTIALS)


if __name__ == "__main__":
    main()
