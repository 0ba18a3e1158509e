#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the ninth build's sessions: Codex CLI rollouts and Claude
Code sessions of projects none of the earlier builds have, taken as agents4.py's were (same record
shape, string cut and compression as agents2.py; a repository's sessions all in one half, the
record's group being the source's name and the SHA-256 rule applied to it, so the held-back half
is projects never looked at). Records of other builds are kept as written; manifest.json gets
one entry per file taken. Run it after agents8.py.

    python3 testdata/eval/agents9.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one with the most sessions and
the licence file present), the licence file checked present at that commit and kept in
licenses/<source>.txt. Besides a CODEX_HOME or ~/.claude kept in the project, the homes and
folders these authors committed are: a CODEX_HOME below the root (.codex-home/.codex/), a
dotfiles repository's Claude Code home without its dot (claude/) or as chezmoi keeps it
(dot_claude/private_projects/private_<dir>/private_<session>.jsonl: chezmoi's prefixes name the
files, the contents are Claude Code's), a folder of the author's own sessions copied out of
~/.claude/projects (CHAT_LOGS/, published after the author's own redaction) and a plugin's
sample sessions (samples/claude-code-projects/, with their subagents). Files without any message
and files the snapshot lacks (4 MB and more) are not taken. A source keeps at most MAX_SESSIONS
sessions, the first in path order. A session holding a real credential is left out
(WITH_CREDENTIALS, checked by hand)."""
import argparse, re

import agents4

# source: (repository, commit, licence, agent, licence file)
SOURCES = {
    "typelang-hm-rs": ("sin4auto/typelang-hm-rs", "d6c7850692a90da3237a32ff4014094c8f7d6ae2", "MIT", "codex", "LICENSE"),
    "natori-dotfiles": ("natori-hrj/dotfiles", "158da6a7590660ca36d9f213c31e39519e2c3645", "MIT", "claude-code", "LICENSE"),
    "saravia-chezmoi": ("shanesaravia/chezmoi", "d87f22d6ab96cfaa491765360f963ca8c5802832", "MIT", "claude-code", "LICENSE"),
    "m-claude": ("M-Thisness/M-Claude", "cd08f7d77c1db3d9c8bcf034d000c5f24b113986", "CC0-1.0", "claude-code", "LICENSE"),
    "session-share": ("moredip/session-share", "c82245286829af5cfe9b535885ed158f34c296b8", "MIT", "claude-code", "LICENSE"),
}
MAX_SESSIONS = 10
SESSION_DIRS = {"m-claude": "CHAT_LOGS/", "session-share": "samples/claude-code-projects/"}
# Sessions that hold real credentials (checked by hand), left out, by path.
WITH_CREDENTIALS = set()

SESSION = re.compile(r"(^|/)\.codex[^/]*/sessions/.*/rollout-[^/]*\.jsonl$"
                     r"|(^|/)(\.|dot_)?claude/(private_)?projects/.*\.jsonl$"
                     r"|^CHAT_LOGS/[^/]+\.jsonl$|^samples/claude-code-projects/.*\.jsonl$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    agents4.take(ap.parse_args().mirror, SOURCES, SESSION, MAX_SESSIONS, WITH_CREDENTIALS, SESSION_DIRS)


if __name__ == "__main__":
    main()
