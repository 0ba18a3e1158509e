#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the thirteenth build's sessions: a Claude Code session and
Codex rollouts that the Entire CLI kept beside two more projects' code. One project keeps them on
the entire/checkpoints/v1 branch, and its session is taken as agents11.py takes its own (agents11.build:
each session once, its longest copy in the snapshot, the agent read from the transcript's own
lines, Copilot and Gemini transcripts and files without a message not taken). The other keeps
them in Entire's other layout, one ref a checkpoint (refs/entire/checkpoints/<id[:2]>/<id[2:]>,
each commit holding <n>/full.jsonl beside Entire's metadata.json), here rollouts Entire imported
from the Codex desktop application; they are read with the same rules (sessions_of_refs: each
session once, its longest copy among the refs, named by the path it would have on the branch,
<id[:2]>/<id[2:]>/<n>/full.jsonl, and recorded with its own ref's commit). Same record shape,
string cut and compression as agents2.py; a repository's sessions all in one half (the record's
group is the source's name, split by agents.split_of), at most agents11.MAX_SESSIONS a source,
the first in path order of the copy taken. Records of other builds are kept as written;
manifest.json gets one entry per file taken. Run it after agents12.py.

    python3 testdata/eval/agents13.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

The projects were found through the repositories holding .entire/settings.json or
.entire/.gitignore and the checkpoints' context.md files in the code index; none is in an earlier
build. As in agents11.py no checkpoint holds a licence file, so the licence is read on the
default branch at LICENCE_COMMIT, its newest commit before the newest checkpoint commit taken, and
the same file was checked present at the default branch's newest commit before the first
checkpoint. It is kept in licenses/<source>.txt. A session holding a real credential is left out
(WITH_CREDENTIALS, checked by hand), and a repository whose sessions hold other people's private
data is not among the sources at all (stat-guy/imessage-mail, MIT: its sessions run a skill that
reads the author's messages and mail, and hold the listing of an inbox, correspondents' names,
addresses and a telephone number)."""
import argparse, subprocess

import agents
import agents2
import agents11

REFS = "refs/entire/checkpoints/"

# Checkpoints on the entire/checkpoints/v1 branch.
# source: (repository, checkpoint commit, licence, licence file, licence commit)
SOURCES = {
    "react-native-live-text-view": ("jfmoe/react-native-live-text-view", "0647b88e844b07ebf2c7fae16c500a6106dbb076",
                                    "MIT", "LICENSE", "7f10231a608fa6d230fc2062177f5c897fcf3d2e"),
}
# Checkpoints one ref each, under refs/entire/checkpoints/.
# source: (repository, licence, licence file, licence commit)
REF_SOURCES = {
    "cyspbot": ("chikachow/cyspbot", "MIT", "LICENSE", "0332885d5617321537bb04c951c794bc94457962"),
}
# Sessions that hold real credentials (checked by hand), left out, by their session's id.
WITH_CREDENTIALS = set()


def sessions_of_refs(gitdir):
    """Each session's longest copy among the checkpoint refs:
    {session id: (path, agent, text, commit)}, path as it would be on the branch."""
    return sessions_of_ref_layout(gitdir, lambda cp: cp.count("/") == 1 and not cp.startswith(("v1/", "v2/")),
                                  agents11.TRANSCRIPT)


def sessions_of_ref_layout(gitdir, keep_ref, transcript):
    """Each session's longest copy among the refs under REFS whose checkpoint part (the ref's
    name after REFS) keep_ref accepts, of the files whose path <checkpoint>/<path in its
    commit> transcript matches: {session id: (path, agent, text, commit)}."""
    best = {}
    refs = agents11.git(gitdir, "for-each-ref", "--format=%(refname) %(objectname)", REFS).decode()
    for row in refs.split("\n"):
        if not row:
            continue
        ref, commit = row.split(" ")
        cp = ref[len(REFS):]
        if not keep_ref(cp):
            continue
        for entry in agents11.git(gitdir, "ls-tree", "-r", commit).decode().split("\n"):
            if not entry:
                continue
            inner = entry.split("\t", 1)[1]
            path = f"{cp}/{inner}"
            if not transcript.match(path):
                continue
            try:
                data = agents11.git(gitdir, "show", f"{commit}:{inner}").decode("utf-8", "replace")
            except subprocess.CalledProcessError:
                continue  # not in the snapshot (4 MB and more)
            agent, sid = agents11.identify(data)
            if agent is None or not agents2.has_message(data):
                continue
            lines = data.count("\n")
            if sid not in best or lines > best[sid][4] or (lines == best[sid][4] and path < best[sid][0]):
                best[sid] = (path, agent, data, commit, lines)
    return {sid: v[:4] for sid, v in best.items()}


def build_refs(sources, mirror, with_credentials):
    """As agents11.build, for sources whose checkpoints are refs of their own."""
    agents11.build_from(sources, mirror, with_credentials, lambda gitdir, src: sessions_of_refs(gitdir),
                        lambda path: REFS + path.rsplit("/", 2)[0], report_found=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    mirror = ap.parse_args().mirror
    agents11.build(SOURCES, mirror, WITH_CREDENTIALS, report_found=True)
    build_refs(REF_SOURCES, mirror, WITH_CREDENTIALS)


if __name__ == "__main__":
    main()
