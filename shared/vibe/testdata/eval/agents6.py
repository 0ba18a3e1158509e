#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the sixth build's sessions: Codex CLI rollouts and Claude
Code project sessions that their authors committed into public repositories with a permissive
licence, from projects none of the earlier builds have. Taken as agents5.py's were (same record
shape, string cut and compression as agents2.py; a repository's sessions all in one half, the
record's group being the source's name and the SHA-256 rule applied to it). Records of other
builds are kept as written; manifest.json gets one entry per file taken. Run it after agents5.py.

    python3 testdata/eval/agents6.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one whose sessions were largest
with the licence file present; the projects removed the sessions later or keep them as they
were), the licence file checked present at that commit and kept in licenses/<source>.txt.
A Claude Code home may sit below the repository's root (sevmorris/mrk1 keeps it as
dotfiles/.claude/). Files without any message (empty, or only the session's header) are not
taken, nor files the snapshot lacks (4 MB and more). A source keeps at most MAX_SESSIONS
sessions, the first in path order. A session holding a real credential is left out
(WITH_CREDENTIALS, checked by hand)."""
import argparse, re

import agents4

# source: (repository, commit, licence, agent, licence file)
SOURCES = {
    "ai-recruitment-clerk": ("Jackela/AI-Recruitment-Clerk", "44979d369820dfb90943afba5bdd20decc845dc4", "MIT", "codex", "LICENSE"),
    "is-04-mcp": ("kucherol/is-04-mcp", "fd8ee6158ff4ee7aafb28add83953be166de6655", "MIT", "codex", "LICENSE"),
    "mrk1": ("sevmorris/mrk1", "45696c6b00e4113bddcf933b41cfc51f90412e2e", "MIT", "claude-code", "LICENSE"),
}
MAX_SESSIONS = 10
# Sessions that hold real credentials (checked by hand), left out, by path. None of the sources
# below.
WITH_CREDENTIALS = set()

SESSION = re.compile(r"(^|/)\.codex[^/]*/sessions/.*/rollout-[^/]*\.jsonl$|(^|/)\.claude/projects/.*\.jsonl$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    agents4.take(ap.parse_args().mirror, SOURCES, SESSION, MAX_SESSIONS, WITH_CREDENTIALS)


if __name__ == "__main__":
    main()
