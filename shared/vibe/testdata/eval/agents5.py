#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the fifth build's sessions: Codex CLI rollouts and Claude
Code project sessions that their authors committed into public repositories with a permissive
licence (their CODEX_HOME or ~/.claude kept inside the project), from projects none of the
earlier builds have. Same record shape, string cut and compression as agents2.py; as in
agents3.py and agents4.py a repository's sessions all fall in one half: the record's group is
the source's name and the SHA-256 rule is applied to it, so the held-back half is projects never
looked at. Records of other builds are kept as written; manifest.json gets one entry per file
taken. Run it after agents4.py.

    python3 testdata/eval/agents5.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one whose sessions were largest
with the licence file present; most projects removed the sessions later), the licence file
checked present at that commit and kept in licenses/<source>.txt. A CODEX_HOME may have
another name than .codex (j5ik2o/dotfiles keeps it as .codex-personal). Files without any
message (empty, or only the session's header) are not taken, nor files the snapshot lacks
(4 MB and more). A source keeps at most MAX_SESSIONS sessions, the first in path order (for
Codex, the earliest). A session holding a real credential is left out (WITH_CREDENTIALS,
checked by hand)."""
import argparse, re

import agents4

# source: (repository, commit, licence, agent, licence file)
SOURCES = {
    "shannon": ("Kocoro-lab/Shannon", "b47793cbc6c8b1550089dfe2b5c347e558503ee2", "MIT", "codex", "LICENSE"),
    "dusseldorfer-calculator": ("albertoviceconti/advanced-dusseldorfer-calculator", "2ffb5a1c28586cfeb751ffc7e8d01ec3b3768f3b", "Apache-2.0", "codex", "LICENSE"),
    "ai-trading-bot": ("bumpy-croc/ai-trading-bot", "2d57453b0ff9cc73040cb1b3af0cf666dbcac8c2", "MIT", "codex", "LICENSE"),
    "oa-worker": ("SunQiangLoop/OA_Worker", "d304f705c8877b190d64b5c6ef2bc10ea2521ef2", "MIT", "codex", "LICENSE"),
    "blockbuilders": ("pierrickmartino/blockbuilders.tech.bmad", "76fd5a93b7fe3e36315f9b67a8073767f92c6802", "MIT", "codex", "LICENSE"),
    "devmap": ("pichi-vm/devmap", "515ee756d970fea55a0af9358f86a2c28552fdae", "Apache-2.0", "codex", "LICENSE"),
    "resting": ("rocxteady/Resting", "0bc2749830b3ce00cb32696a47b279fe2735a656", "MIT", "codex", "LICENSE"),
    "j5ik2o-dotfiles": ("j5ik2o/dotfiles", "a3f0a1b613f619b3210676685abed5e6bfc55ff9", "MIT", "codex", "LICENSE-MIT"),
    "tpu-inference": ("windtara0619/tpu-inference", "099f73824004c8a6ae777b08e549a5e86c2035a3", "Apache-2.0", "claude-code", "LICENSE"),
    "devcontainer-dotfiles": ("maxnoobineating/UbuntuDevcontainer_Dotfiles", "81d00768f735ed74e35b73daea0671bbead3b3f5", "MIT", "claude-code", "LICENSE-MIT.txt"),
}
MAX_SESSIONS = 10
# Sessions that hold real credentials (checked by hand), left out, by path. None of the sources
# below; andress722/CRM_ADMIN (MIT), whose only rollout holds a Gmail app password in an .env
# file the agent read, is not a source for that reason.
WITH_CREDENTIALS = set()

SESSION = re.compile(r"(^|/)\.codex[^/]*/sessions/.*/rollout-[^/]*\.jsonl$|(^|/)\.claude/projects/.*\.jsonl$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    agents4.take(ap.parse_args().mirror, SOURCES, SESSION, MAX_SESSIONS, WITH_CREDENTIALS)


if __name__ == "__main__":
    main()
