#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the second build's sessions: Codex CLI rollouts and Claude
Code project sessions that their authors committed into public repositories with a permissive
licence (their own CODEX_HOME or ~/.claude kept inside the project). Same record shape, split,
string cut and compression as agents.py; records of other sources are kept as written, and
manifest.json gets one entry per file taken. Run it after agents.py.

    python3 testdata/eval/agents2.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the newest that still holds the
sessions; some were removed from the repository later), licence checked at that commit:
- Monotoba/OpenPrintKit (MIT), MoonLadderStudios/MoonMind (MIT),
  Python-AI-Solutions/agentic-neurodata-conversion (MIT), SproutSeeds/coda (MIT),
  EdofEngland/code_butler (Apache-2.0): .codex/sessions/**/rollout-*.jsonl, Codex CLI (and
  Codex VS Code extension) rollouts of 0.34 to 0.63;
- JaydenXsoe/ocodex (Apache-2.0, a fork of openai/codex): .codex/sessions/, rollouts of its
  author's own build in the layout before 0.20 (bare items, no session_meta): the project
  directory is read from the session's <environment_context> and kept as the record's root;
- HillviewCap/Personal_AI_Infrastructure and Smartagent-so/Personal_AI_Infrastructure (MIT,
  forks of danielmiessler/PAI): .claude/projects/<dir>/*.jsonl, Claude Code sessions (and the
  agent-*.jsonl sidechains of older versions); files without a message (empty, or
  summaries only) are not taken. Smartagent-so's author had already replaced
  the values of their keys and some settings by ***REMOVED*** throughout the history.

A session holding a real credential would be left out (WITH_CREDENTIALS, checked by hand); none
of these did: what the scans found were placeholders (your_key_here, ghp_xxx), environment
references ($GOOGLE_API_KEY), local defaults (amqp://guest:guest@localhost) and the
***REMOVED*** marks, besides encrypted reasoning blobs (encrypted_content) that only look like keys."""
import argparse, json, os, re, subprocess

import agents

HERE = agents.HERE

# source: (repository, commit, licence, agent, directory of the sessions)
SOURCES = {
    "openprintkit": ("Monotoba/OpenPrintKit", "096f97b0239a63a93381ec5708fab1043b25c72d", "MIT", "codex", ".codex/sessions/"),
    "moonmind": ("MoonLadderStudios/MoonMind", "786ef1a51cec0d27635ee1d3e8b7114da78ed4da", "MIT", "codex", ".codex/sessions/"),
    "neurodata-conversion": ("Python-AI-Solutions/agentic-neurodata-conversion", "d8455c6f59c148d591cc0a211236a1ca41868a9b", "MIT", "codex", ".codex/sessions/"),
    "coda": ("SproutSeeds/coda", "e84c4bb72033a18f95679cd2ab2616a92fbdbee0", "MIT", "codex", ".codex/sessions/"),
    "code-butler": ("EdofEngland/code_butler", "52bb91c1be1e8005e41d459e3269912f19a79ed8", "Apache-2.0", "codex", ".codex/sessions/"),
    "ocodex": ("JaydenXsoe/ocodex", "7d4f4e93b02ca0dc3159c6847fe054668c36d8e8", "Apache-2.0", "codex", ".codex/sessions/"),
    "pai-hillview": ("HillviewCap/Personal_AI_Infrastructure", "110ec6687881a75cb2ea40d4d33821e5e12b7385", "MIT", "claude-code", ".claude/projects/"),
    "pai-smartagent": ("Smartagent-so/Personal_AI_Infrastructure", "051a4d9083d21ad14562b66ba9ddc3c2d057df8c", "MIT", "claude-code", ".claude/projects/"),
}
# Sessions that hold real credentials (checked by hand), left out. None so far.
WITH_CREDENTIALS = set()

CWD_TAG = re.compile(r"<cwd>([^<]+)</cwd>")


class Repo:
    def __init__(self, mirror, src):
        self.name, self.commit, self.licence, self.agent, self.under = SOURCES[src]
        self.git = os.path.join(mirror, self.name.replace("/", "+"), "repo")

    def ls(self):
        out = subprocess.check_output(["git", "--git-dir", self.git, "ls-tree", "-r", "--name-only", self.commit, self.under], text=True)
        return sorted(p for p in out.split("\n") if p.endswith(".jsonl"))

    def show(self, path):
        return subprocess.check_output(["git", "--git-dir", self.git, "show", f"{self.commit}:{path}"]).decode("utf-8", "replace")


def legacy_root(data):
    """The project directory of a rollout without session_meta: its environment_context's cwd."""
    for i, line in enumerate(data.split("\n")):
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if i == 0 and v.get("type") == "session_meta":
            return None
        for part in v.get("content") or []:
            if isinstance(part, dict) and (m := CWD_TAG.search(part.get("text") or "")):
                return m.group(1).strip()
    return None


def has_message(data):
    """Whether a session holds any message (some files are empty or hold only summaries)."""
    for line in data.split("\n"):
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if not isinstance(v, dict):
            continue
        item = v.get("payload") if v.get("type") == "response_item" else v
        if v.get("type") in ("user", "assistant") or (isinstance(item, dict) and item.get("type") == "message"):
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    mirror = ap.parse_args().mirror
    records, manifest = [], []
    for src in SOURCES:
        r = Repo(mirror, src)
        licence_text = r.show("LICENSE")
        with open(os.path.join(HERE, "licenses", f"{src}.txt"), "w") as f:
            f.write(licence_text)
        for p in r.ls():
            if p in WITH_CREDENTIALS:
                continue
            data = r.show(p)
            if not has_message(data):
                continue  # no session: empty, or only summaries
            rel = agents.keep(src, p.lstrip("."), agents.jsonl(data))
            ident = f"{src}:{p}"
            rec = {"id": ident, "source": src, "agent": r.agent, "split": agents.split_of(ident), "file": rel}
            if r.agent == "codex" and (root := legacy_root(data)):
                rec["root"] = root
            records.append(rec)
            manifest.append({"commit": r.commit, "licence": r.licence, "path": p, "repo": r.name, "source": src,
                             "taken": ("Codex rollout" if r.agent == "codex" else "Claude Code session") + ", strings cut to 4000 characters"})

    agents.write_build(SOURCES, records, manifest)
    for src in SOURCES:
        n = [x for x in records if x["source"] == src]
        print(f"{src}: {len(n)} sessions, {sum(x['split'] == 'dev' for x in n)} dev, {sum(x['split'] == 'held' for x in n)} held")


if __name__ == "__main__":
    main()
