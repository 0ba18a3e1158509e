#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the fourth build's sessions: Codex CLI rollouts and Claude
Code project sessions that their authors committed into public repositories with a permissive
licence (their CODEX_HOME or ~/.claude kept inside the project), from projects the earlier
builds do not have. Same record shape, string cut and compression as agents2.py; as in
agents3.py a repository's sessions all fall in one half: the record's group is the source's
name and the SHA-256 rule is applied to it, so the held-back half is projects never looked at.
Records of other builds are kept as written; manifest.json gets one entry per file taken.
Run it after agents3.py.

    python3 testdata/eval/agents4.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one whose sessions were largest
with the licence file present; most projects removed the sessions later), the licence file
checked present at that commit and kept in licenses/<source>.txt. Files without any message
(empty, or only the session's header) are not taken, nor files the snapshot lacks (4 MB and
more). A source keeps at most MAX_SESSIONS sessions, the first in path order (for Codex, the
earliest); pai-procrypto only those of its own project directory (SESSION_DIRS). A session
holding a real credential is left out (WITH_CREDENTIALS, checked by hand)."""
import argparse, os, re, subprocess

import agents
import agents2

HERE = agents.HERE

# source: (repository, commit, licence, agent, licence file)
SOURCES = {
    "test-framework": ("EdouardZemb/test-framework", "9a3ac952de99c23f0d1b593aab3ddd9b0b8692e2", "MIT", "codex", "LICENSE"),
    "cpolar-connect": ("Hoper-J/cpolar-connect", "70b17db1db0ced357f7e0c50bf24bb786147b8e2", "MIT", "codex", "LICENSE"),
    "llm-perf-opt": ("CodeGandee/llm-perf-opt", "0c68e3d7f1331def992a33303f72efd6b59a8cd4", "MIT", "codex", "LICENSE"),
    "youtube-mcp-server": ("ctgunn/youtube-mcp-server", "b96d6883ff0f6d29ce8647ccf3125002fe7d9fc5", "MIT", "codex", "LICENSE"),
    "prometheus-parking-lot-rs": ("Prometheus-AGS/prometheus-parking-lot-rs", "ec6b4b43243325bb5f554d2d27ee94556c35355b", "MIT", "codex", "LICENSE-MIT"),
    "behaviour-lab": ("akhileswar18/behaviour_lab", "488736298bc266f4b853d225cc4eb6b074f2926b", "MIT", "codex", "LICENSE"),
    "vllm-config": ("ThalesMMS/vLLM-config", "6dbc31fcc78f7ff0df9743b5f36aa39ec765c415", "MIT", "codex", "LICENSE"),
    "dazi-skill": ("hawkli-1994/dazi-skill", "6259aff19833a788b18715c2462066da7b459d9a", "Apache-2.0", "codex", "LICENSE"),
    "ship": ("ivanma9/ship", "4d68d690f668e1c9d3bc812eaaeb68416630cf6b", "MIT", "codex", "LICENSE"),
    "atelier": ("dsissoko/atelier", "cfc8a25f3ea7162d083be115ca938217540ba24b", "MIT", "codex", "LICENSE"),
    "zo-qore": ("MythologIQ/Zo-Qore", "5268f2d565236af77a2b5637b9307d71560c28ec", "MIT", "codex", "LICENSE"),
    "slay": ("chloebrett/slay", "802e5c0d1bda2e19497480fd312d6342827861c4", "MIT", "claude-code", "LICENSE"),
    "pai-procrypto": ("procrypto/Personal_AI_Infrastructure", "6a72ae4a0f93b94ac77a57dd7314a9f0cea3efeb", "MIT", "claude-code", "LICENSE"),
}
MAX_SESSIONS = 10
SESSION_DIRS = {"pai-procrypto": ".claude/projects/-Users-neilhart-PAI/"}
# Sessions that hold real credentials (checked by hand), left out, by path.
WITH_CREDENTIALS = set()

SESSION = re.compile(r"(^|/)\.codex/sessions/.*/rollout-[^/]*\.jsonl$|(^|/)\.claude/projects/.*\.jsonl$")


def git(gitdir, *args):
    return subprocess.check_output(["git", "--git-dir", gitdir, *args], stderr=subprocess.DEVNULL)


def take(mirror, sources, session, max_sessions, with_credentials, session_dirs=None):
    """Takes each source's sessions at its commit (the paths session matches, under its
    session_dirs entry), its licence file, and writes the build: agents.jsonl, sessions/ and
    manifest.json."""
    session_dirs = session_dirs or {}
    records, manifest = [], []
    for src, (name, commit, licence, agent, licence_file) in sources.items():
        gitdir = os.path.join(mirror, name.replace("/", "+"), "repo")
        with open(os.path.join(HERE, "licenses", f"{src}.txt"), "wb") as f:
            f.write(git(gitdir, "show", f"{commit}:{licence_file}"))
        paths = sorted(p for p in git(gitdir, "ls-tree", "-r", "--name-only", commit).decode().split("\n")
                       if session.search(p) and p.startswith(session_dirs.get(src, "")))
        taken = 0
        for p in paths:
            if taken == max_sessions:
                break
            if p in with_credentials:
                continue
            try:
                data = git(gitdir, "show", f"{commit}:{p}").decode("utf-8", "replace")
            except subprocess.CalledProcessError:
                continue  # not in the snapshot (4 MB and more)
            if not agents2.has_message(data):
                continue
            taken += 1
            rel = agents.keep(src, p.lstrip("."), agents.jsonl(data))
            records.append({"id": f"{src}:{p}", "source": src, "agent": agent, "group": src,
                            "split": agents.split_of(src), "file": rel})
            manifest.append({"commit": commit, "licence": licence, "path": p, "repo": name, "source": src,
                             "taken": ("Codex rollout" if agent == "codex" else "Claude Code session") + ", strings cut to 4000 characters"})

    agents.write_build(sources, records, manifest)
    for src in sources:
        n = [x for x in records if x["source"] == src]
        print(f"{src}: {len(n)} sessions, {n[0]['split'] if n else '-'}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    take(ap.parse_args().mirror, SOURCES, SESSION, MAX_SESSIONS, WITH_CREDENTIALS, SESSION_DIRS)


if __name__ == "__main__":
    main()
