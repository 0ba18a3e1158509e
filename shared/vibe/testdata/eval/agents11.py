#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the eleventh build's sessions: Claude Code sessions and Codex
CLI rollouts that the Entire CLI (entireio/cli) kept on a project's checkpoint branch,
entire/checkpoints/v1, which its authors pushed with the project. Same record shape, string cut
and compression as agents2.py; a repository's sessions all in one half (the record's group is the
source's name and agents.split_of is applied to it, so the held-back half is projects never looked
at). Records of other builds are kept as written; manifest.json gets one entry per file taken.
Run it after agents10.py.

    python3 testdata/eval/agents11.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

The checkpoint branch is an orphan branch: each checkpoint is <id[:2]>/<id[2:]>/ and holds, for
each session that touched it, a numbered folder with the agent's own transcript as it stood then
(full.jsonl) beside Entire's metadata.json, prompt.txt and context.md. A session recurs in every
checkpoint it reached, each copy longer than the one before, so a session is taken once: the
longest copy the snapshot has (copies of 4 MB and more are absent), read from the branch's newest
commit. Which agent wrote a transcript is read from its lines, not from Entire's metadata (older
checkpoints name none): Claude Code's lines carry a sessionId and user/assistant types, a Codex
rollout opens with session_meta. Copilot CLI transcripts (no adapter) and Gemini CLI ones (their
checkpoint keeps no project directory for the replay) are not taken, nor transcripts without a
message. A source keeps at most MAX_SESSIONS sessions, the first in path order of the copy taken.

The branch holds no licence file, so each source's licence is read from the repository's default
branch at LICENCE_COMMIT, its newest commit before the checkpoint commit taken; the same file was
checked present at the default branch's commit before the branch's first checkpoint too, so the
licence covered the project for as long as the sessions were pushed. It is kept in
licenses/<source>.txt. A session holding a real credential is left out (WITH_CREDENTIALS, checked
by hand)."""
import argparse, json, os, re, subprocess

import agents
import agents2

HERE = agents.HERE
BRANCH = "entire/checkpoints/v1"

# source: (repository, checkpoint commit, licence, licence file, licence commit)
SOURCES = {
    "entire-cli": ("entireio/cli", "394f81fab87f71aa8938d91ff7a067c524ff344b", "MIT", "LICENSE",
                   "f446dcfc09fda981a5c373a5f47c54363761fa6e"),
    "oh-my-posh": ("JanDeDobbeleer/oh-my-posh", "0d1116c02814bec7231dbe3c3b9661106418a724", "MIT", "COPYING",
                   "d8a2d71a5bcf90dad3a885aef1edcf9cd906f713"),
    "agentv": ("EntityProcess/agentv", "47dca0eea369e545808f72dd9473c846f66dd79f", "MIT", "LICENSE",
               "a688de19ed463ba883a964bcb2765060844527e3"),
    "context-evaluator": ("PackmindHub/context-evaluator", "63679d4764ce74bb41f8e5794f6183d43ea9ee88", "Apache-2.0",
                          "LICENSE", "beba8a7bf6853b0c6b2d62b3eddf364d39a6b106"),
}
MAX_SESSIONS = 10
# Sessions that hold real credentials (checked by hand), left out, by their session's id.
WITH_CREDENTIALS = set()

TRANSCRIPT = re.compile(r"^[0-9a-f]{2}/[0-9a-f]+/\d+/full\.jsonl$")


def git(gitdir, *args):
    return subprocess.check_output(["git", "--git-dir", gitdir, *args], stderr=subprocess.DEVNULL)


def identify(data):
    """(agent, session id) of a transcript as its own lines tell them, or (None, None)."""
    for line in data.split("\n"):
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if not isinstance(v, dict):
            continue
        if v.get("type") == "session_meta" and isinstance(v.get("payload"), dict):
            return "codex", v["payload"].get("id") or v["payload"].get("session_id")
        if v.get("type") in ("user", "assistant") and v.get("sessionId"):
            return "claude-code", v["sessionId"]
    return None, None


def sessions_of(gitdir, commit):
    """Each session's longest copy on the branch at commit: {session id: (path, agent, text)}."""
    best = {}
    for row in git(gitdir, "ls-tree", "-r", "-l", commit).decode().split("\n"):
        if not row:
            continue
        meta, path = row.split("\t", 1)
        if not TRANSCRIPT.match(path):
            continue
        try:
            data = git(gitdir, "show", f"{commit}:{path}").decode("utf-8", "replace")
        except subprocess.CalledProcessError:
            continue  # not in the snapshot (4 MB and more)
        agent, sid = identify(data)
        if agent is None or not agents2.has_message(data):
            continue
        lines = data.count("\n")
        if sid not in best or lines > best[sid][3] or (lines == best[sid][3] and path < best[sid][0]):
            best[sid] = (path, agent, data, lines)
    return {sid: v[:3] for sid, v in best.items()}


def build(sources, mirror, with_credentials, report_found=False, keep=None):
    """Takes each source's sessions from its checkpoint branch (at most MAX_SESSIONS, in path
    order, those in with_credentials left out, and those keep(src, data) refuses when keep is
    given), writes its licence, and writes the build."""
    def read(gitdir, src):
        commit = sources[src][1]
        return {sid: (path, agent, data, commit) for sid, (path, agent, data) in sessions_of(gitdir, commit).items()}
    build_from(sources, mirror, with_credentials, read, lambda path: BRANCH, report_found, keep)


def build_from(sources, mirror, with_credentials, read, where, report_found=False, keep=None):
    """The build of sources whose sessions read(gitdir, src) finds ({sid: (path, agent, data,
    commit)}), each source's tuple opening with its repository and ending with its licence,
    licence file and licence commit; where(path) names what the Entire CLI kept a session on."""
    records, manifest = [], []
    for src, spec in sources.items():
        name, (licence, licence_file, licence_commit) = spec[0], spec[-3:]
        gitdir = os.path.join(mirror, name.replace("/", "+"), "repo")
        with open(os.path.join(HERE, "licenses", f"{src}.txt"), "wb") as f:
            f.write(git(gitdir, "show", f"{licence_commit}:{licence_file}"))
        found = read(gitdir, src)
        taken = 0
        for sid, (path, agent, data, commit) in sorted(found.items(), key=lambda kv: kv[1][0]):
            if taken == MAX_SESSIONS:
                break
            if sid in with_credentials or (keep is not None and not keep(src, data)):
                continue
            taken += 1
            rel = agents.keep(src, path, agents.jsonl(data))
            records.append({"id": f"{src}:{path}", "source": src, "agent": agent, "group": src,
                            "split": agents.split_of(src), "file": rel})
            manifest.append({"commit": commit, "licence": licence, "licence_commit": licence_commit,
                             "path": path, "repo": name, "source": src,
                             "taken": ("Codex rollout" if agent == "codex" else "Claude Code session")
                             + f" kept by the Entire CLI on {where(path)}, strings cut to 4000 characters"})
        if report_found:
            print(f"{src}: {len(found)} sessions found")
    agents.write_build(sources, records, manifest)
    for src in sources:
        n = [x for x in records if x["source"] == src]
        kinds = sorted({x["agent"] for x in n})
        print(f"{src}: {len(n)} sessions ({', '.join(kinds)}), {n[0]['split'] if n else '-'}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    build(SOURCES, ap.parse_args().mirror, WITH_CREDENTIALS)


if __name__ == "__main__":
    main()
