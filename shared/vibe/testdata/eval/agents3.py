#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the third build's sessions: aider chat histories
(.aider.chat.history.md) that their authors committed into public repositories with a
permissive licence. One record per chat ("# aider chat started at"), as agents.py keeps
aider's, but a repository's chats all fall in one half: the split is the SHA-256 rule's on the
record's group, the source's name, so that the held-back half is projects never looked at.
Records of other builds are kept as written; manifest.json gets one entry per file taken.

    python3 testdata/eval/agents3.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit where its history file was largest (several
projects removed the file later), its licence file checked present at that commit and kept
in licenses/<source>.txt. A history holding a real credential would be left out
(WITH_CREDENTIALS, checked by hand)."""
import argparse, os, subprocess

import agents

HERE = agents.HERE

# source: (repository, commit, licence, history path, licence file)
SOURCES = {
    "mozgoslav": ("AlexShchuka/mozgoslav", "1f66bc9d44c5950cada7054a9581d7058caaac66", "MIT", ".aider.chat.history.md", "LICENSE"),
    "afi-core": ("AFI-Protocol/afi-core", "59f264996752251a16788fce2715c2cec7252970", "MIT", ".aider.chat.history.md", "LICENSE"),
    "team3176": ("Team3176/Code_2024", "f551d458bcc015975c73ceb1dab9da078cdfaf83", "BSD-3-Clause", ".aider.chat.history.md", "LICENSE"),
    "mmm-miku": ("DreamyChloe/MMM-Miku", "be4df9aec5d4da77b70caa465cb518cbed062397", "MIT", ".aider.chat.history.md", "LICENSE.md"),
    "prodj-link": ("Lain2077/python-prodj-link", "6de222ff3c63a207e026fbd49cc7644a72e13bb5", "Apache-2.0", ".aider.chat.history.md", "LICENSE"),
    "zen-mcp-server": ("BeehiveInnovations/zen-mcp-server", "4d015460e293fac7531ed6429c3c9d02bbba24a6", "Apache-2.0", ".aider.chat.history.md", "LICENSE"),
    "fastled": ("FastLED/FastLED", "0158470ea7638d033a7d074151cd4536b4409972", "MIT", ".aider.chat.history.md", "LICENSE"),
    "open-webui-tools": ("Haervwe/open-webui-tools", "62ea0ec0148a97004bd8ac45e6aada464b5b9edb", "MIT", ".aider.chat.history.md", "LICENSE"),
    "prompt-sail": ("sabelosimelane/prompt_sail_2", "528668e9f78f4e1bd2e94ab0d008191c0be8c2d7", "MIT", ".aider.chat.history.md", "LICENSE"),
    "kinchercheur": ("DigitalKin-ai/aider_kinchercheur", "73e950a07e8ed01225a4b1ca6fe177541a33222a", "Apache-2.0", ".aider.chat.history.md", "LICENSE.txt"),
    "quackgpt": ("JOOORN/QuackGPT", "45000e349adaaeec46220b5735f449804198e50f", "Apache-2.0", ".aider.chat.history.md", "LICENSE"),
    "expense-tracker": ("PierrunoYT/expense-tracker", "358146f9649e9ff1b6d006fef38ed2e650819b10", "MIT", ".aider.chat.history.md", "LICENSE"),
    "storm-con-aider": ("Todofine0/storm_con_aider", "ba6a8f92e769e3a0fd79bf863c6358d79601d3a5", "MIT", ".aider.chat.history.md", "LICENSE"),
    "exa-js": ("exa-labs/exa-js", "f5a078a0b261aebfdc07711aac3ad44b6fae92e6", "MIT", ".aider.chat.history.md", "LICENSE"),
    "open-webui-mod1": ("bpawnzZ/open-webui-mod1", "15ab2e9782393ff4bf43c62ca04873b180c765ee", "MIT", ".aider.chat.history.md", "LICENSE"),
    "evm-proxy-tools": ("BitFinding/evm-proxy-tools", "0bae9e401cbba37647514b9a7a41c8734bdbf9a9", "MIT", ".aider.chat.history.md", "LICENSE"),
    "vigint": ("Consistos/VigInt", "c3a8e89ac00626b9836c883660dc14c354f14f18", "MIT", ".aider.chat.history.md", "LICENSE"),
    "genkit-rag": ("bk202042/codelab-ai-genkit-rag", "a8e3d14905acffdd5f8018c023e070ed995a239e", "Apache-2.0", ".aider.chat.history.md", "LICENSE"),
}
# Histories that hold real credentials (checked by hand), left out: storm_con_aider's holds a
# full-length DeepSeek API key, open-webui-mod1's a Tailscale auth key, VigInt's the password of
# a streaming server in its RTSP URL.
WITH_CREDENTIALS = {"storm-con-aider", "open-webui-mod1", "vigint"}

HEADER = "# aider chat started at"


def show(git, commit, path):
    return subprocess.check_output(["git", "--git-dir", git, "show", f"{commit}:{path}"]).decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    mirror = ap.parse_args().mirror
    records, manifest = [], []
    for src, (name, commit, licence, path, licence_file) in SOURCES.items():
        if src in WITH_CREDENTIALS:
            continue
        git = os.path.join(mirror, name.replace("/", "+"), "repo")
        with open(os.path.join(HERE, "licenses", f"{src}.txt"), "w") as f:
            f.write(show(git, commit, licence_file))
        text = show(git, commit, path)
        rel = agents.keep(src, path.lstrip("."), text)
        seen = {}
        for line in text.split("\n"):
            if not line.startswith(HEADER):
                continue
            h = line.strip()
            seen[h] = seen.get(h, 0) + 1
            part = h if seen[h] == 1 else f"{h} ({seen[h]})"
            ident = f"{src}:{path}#{part}"
            records.append({"id": ident, "source": src, "agent": "aider", "group": src, "split": agents.split_of(src),
                            "file": rel, "part": part})
        manifest.append({"commit": commit, "licence": licence, "path": path, "repo": name, "source": src,
                         "taken": "aider chat history, whole"})

    agents.write_build(SOURCES, records, manifest)
    for src in SOURCES:
        n = [x for x in records if x["source"] == src]
        print(f"{src}: {len(n)} chats, {n[0]['split'] if n else '-'}")


if __name__ == "__main__":
    main()
