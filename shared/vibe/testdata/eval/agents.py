#!/usr/bin/env python3
"""Writes agents.jsonl and sessions/: recorded sessions of other agents and other public
repositories than transcripts.jsonl's, replayed through vibe-publish's adapters
(clients/vibe-publish/internal/{claudecode,gemini,aider,codex}, TestTranscriptEvaluation).
One record per session, split into halves by the SHA-256 of its id like every other example;
every string of a JSON session is cut to 4000 characters (the publisher previews 2000) and
each file is kept gzip-compressed. manifest.json gets one entry per file taken.

    python3 testdata/eval/agents.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Sources:
- handgemacht-ai/claude-code-log (fork of daaain/claude-code-log, MIT):
  test/test_data/real_projects/, real Claude Code sessions of its author's projects
  (transcripts.jsonl holds only test/test_data/*.jsonl);
- mischa-thisness/M-Gemini (CC0 1.0): Archives/session-*.json, real Gemini CLI sessions,
  published after the author's own redaction (four that still hold real credentials are left
  out, WITH_CREDENTIALS); only sessions whose project directory is known
  (Gemini CLI names it by the SHA-256 of its path: /home/mischa, C:\\Users\\Mischa);
- Aquaticat/Monochromatic (Apache-2.0) and Asphyksia/OpenCoder (MIT, at the commit its history
  was largest): .aider.chat.history.md, real aider histories, one record per chat ("# aider
  chat started at"), so a history's chats fall in both halves;
- jazzyalex/agent-sessions (MIT): Resources/Fixtures' Claude Code and Codex format fixtures
  (trimmed values: format fixtures, not sessions; reported on their own)."""
import argparse, gzip, hashlib, json, os, re, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))

SOURCES = {
    "claude-code-log-projects": ("handgemacht-ai/claude-code-log", "13161950a8af501ccf53b726aa3e9bcffbba2535", "MIT"),
    "m-gemini": ("mischa-thisness/M-Gemini", "3bad8d462ef0a93165eb373a44f09a77910e5ecd", "CC0-1.0"),
    "monochromatic": ("Aquaticat/Monochromatic", "56372c6db0d4f2431d99bfdbe2142702ed891101", "Apache-2.0"),
    "agent-sessions": ("jazzyalex/agent-sessions", "651e854f4dbfaaa1161ffc9015045921ed30cf12", "MIT"),
    "opencoder": ("Asphyksia/OpenCoder", "b4e1e3e322c9f8ef10a0ac4913e1443f06f926c8", "MIT"),
}
# Sessions that hold real credentials (checked by hand), left out: a Gemini API key given to
# the agent, Google API keys in a fetched page's data, PGP private key blocks and a 1Password
# Secret Key printed by the tools.
WITH_CREDENTIALS = {
    "Archives/session-2026-01-10T01-55-ac6d3016.json",
    "Archives/session-2025-12-25T12-25-301d6774.json",
    "Archives/session-2026-01-01T01-15-376d5da4.json",
    "Archives/session-2026-01-01T23-35-1d310a63.json",
}
GEMINI_ROOTS = {hashlib.sha256(p.encode()).hexdigest(): p for p in ["/home/mischa", "C:\\Users\\Mischa"]}


def split_of(ident):
    return "dev" if hashlib.sha256(ident.encode()).digest()[0] % 2 == 0 else "held"


def cut_strings(v, n=4000):
    if isinstance(v, str):
        return v[:n]
    if isinstance(v, list):
        return [cut_strings(x, n) for x in v]
    if isinstance(v, dict):
        return {k: cut_strings(x, n) for k, x in v.items()}
    return v


class Repo:
    def __init__(self, mirror, src):
        self.name, self.commit, self.licence = SOURCES[src]
        self.git = os.path.join(mirror, self.name.replace("/", "+"), "repo")

    def ls(self, under):
        out = subprocess.check_output(["git", "--git-dir", self.git, "ls-tree", "-r", "--name-only", self.commit, under], text=True)
        return sorted(out.split("\n")[:-1])

    def show(self, path):
        """The file's text; CalledProcessError when the snapshot lacks it (files of 4 MB and more)."""
        return subprocess.check_output(["git", "--git-dir", self.git, "show", f"{self.commit}:{path}"],
                                       stderr=subprocess.DEVNULL).decode("utf-8", "replace")


def show(repo, path):
    try:
        return repo.show(path)
    except subprocess.CalledProcessError:
        return None


def keep(src, path, data):
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", path.strip("/")) + ".gz"
    rel = os.path.join("sessions", src, name)
    os.makedirs(os.path.join(HERE, "sessions", src), exist_ok=True)
    with gzip.GzipFile(os.path.join(HERE, rel), "wb", mtime=0) as f:
        f.write(data.encode())
    return rel


def jsonl(data):
    lines = []
    for line in data.split("\n"):
        try:
            lines.append(json.dumps(cut_strings(json.loads(line)), ensure_ascii=False, separators=(",", ":")))
        except ValueError:
            continue
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    mirror = ap.parse_args().mirror
    records, manifest = [], []

    def record(src, agent, repo, path, rel, taken, **extra):
        ident = f"{src}:{path}" + (f"#{extra['part']}" if "part" in extra else "")
        records.append({"id": ident, "source": src, "agent": agent, "split": split_of(ident), "file": rel, **extra})
        entry = {"commit": repo.commit, "licence": repo.licence, "path": path, "repo": repo.name, "source": src, "taken": taken}
        if entry not in manifest:
            manifest.append(entry)

    r = Repo(mirror, "claude-code-log-projects")
    for p in r.ls("test/test_data/real_projects/"):
        if p.endswith(".jsonl") and (data := show(r, p)) is not None:
            record("claude-code-log-projects", "claude-code", r, p, keep("claude-code-log-projects", p, jsonl(data)),
                   "Claude Code session, strings cut to 4000 characters")

    r = Repo(mirror, "m-gemini")
    for p in r.ls("Archives/"):
        if not re.search(r"/session-[^/]*\.json$", p) or p in WITH_CREDENTIALS:
            continue
        try:
            doc = json.loads(r.show(p))
        except (subprocess.CalledProcessError, ValueError):
            continue  # not in the snapshot, or no JSON document
        root = GEMINI_ROOTS.get(doc.get("projectHash")) if isinstance(doc, dict) else None
        if root is None:
            continue
        data = json.dumps(cut_strings(doc), ensure_ascii=False)
        record("m-gemini", "gemini", r, p, keep("m-gemini", p, data), "Gemini CLI session, strings cut to 4000 characters", root=root)

    for src in ("monochromatic", "opencoder"):
        r = Repo(mirror, src)
        p = ".aider.chat.history.md"
        text = r.show(p)
        rel = keep(src, p, text)
        seen = {}
        for line in text.split("\n"):
            if line.startswith("# aider chat started at"):
                h = line.strip()
                seen[h] = seen.get(h, 0) + 1
                record(src, "aider", r, p, rel, "aider chat history, whole", part=h if seen[h] == 1 else f"{h} ({seen[h]})")

    r = Repo(mirror, "agent-sessions")
    for p in r.ls("Resources/Fixtures/"):
        agent = "codex" if "/codex" in p else "claude-code" if "/claude/" in p else None
        if not p.endswith(".jsonl") or agent is None or p.endswith("claude/small.jsonl") or (data := show(r, p)) is None:
            continue  # small.jsonl: every uuid and timestamp the same placeholder
        record("agent-sessions", agent, r, p, keep("agent-sessions", p, jsonl(data)), "format fixture, strings cut to 4000 characters")

    write_build(SOURCES, records, manifest)


def write_build(sources, records, files):
    """Replaces the records of a build's sources in agents.jsonl and their files in
    manifest.json; every other build's are kept as written."""
    path = os.path.join(HERE, "agents.jsonl")
    with open(path) as f:
        kept = [r for r in map(json.loads, filter(str.strip, f)) if r["source"] not in sources]
    with open(path, "w") as f:
        for rec in kept + records:
            f.write(json.dumps(rec, sort_keys=True, ensure_ascii=False) + "\n")
    path = os.path.join(HERE, "manifest.json")
    with open(path) as f:
        old = [e for e in json.load(f) if e["source"] not in sources]
    with open(path, "w") as f:
        json.dump(old + files, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
