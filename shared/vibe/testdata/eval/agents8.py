#!/usr/bin/env python3
"""Adds to agents.jsonl and sessions/ the eighth build's sessions: SpecStory histories of more
projects, taken as agents7.py's were (one record per history file, kept whole; a repository's
histories all in one half, the record's group being the source's name and the SHA-256 rule
applied to it, so the held-back half is projects never looked at), from permissively licensed
projects none of the earlier builds have. Records of other builds are kept as written;
manifest.json gets one entry per file taken. Run it after agents7.py.

    python3 testdata/eval/agents8.py --mirror <dir>   # bare clones as <dir>/<owner>+<name>/repo

Each source is one repository at the commit named below (the one with the most histories and
the licence file present), the licence file checked present at that commit and kept in
licenses/<source>.txt. Files without any message and files the snapshot lacks (4 MB and more)
are not taken. A source keeps at most MAX_SESSIONS histories, the first in path order; a
project that keeps copies of its history folder elsewhere (a VS Code Local History folder,
.history/, and a .config/ copy) is taken from its root's .specstory/history/ alone
(HISTORY_DIRS). A history holding a real credential is left out (WITH_CREDENTIALS, checked by
hand)."""
import argparse

import agents7

# source: (repository, commit, licence, licence file)
SOURCES = {
    "agente-bsc-rag": ("hpm27/agente-bsc-rag", "1ff5fb295e188ff7bccbb7c415eca5e82f751f30", "MIT", "LICENSE"),
    "glpi-dashboard-cau": ("jonathan-nascimento51/glpi_dashboard_cau", "30e7c774bdb1cb377ccb2e781dce72a743634acf", "MIT", "LICENSE"),
    "paperbites": ("Bucur21/PaperBites", "7a7c53c5a6880fed5597aeb499e57a3e5d2d8363", "MIT", "LICENSE"),
    "bing-wallpaper": ("AgentPhoenix7/bing-wallpaper", "5d03251a065a95db5d7274139dbe1d7101b0f387", "Apache-2.0", "LICENSE"),
    "alpamayo": ("BillWan-zzzyyy/alpamayo", "5c6341c180a0cc5cafb058ee9479873e761dad76", "Apache-2.0", "LICENSE"),
    "afterburn": ("BenjaminScholtens/Afterburn", "a4b57412fa25c5572d18e1637a610948aa5baebf", "MIT", "LICENSE"),
    "ail2-builder": ("AIL2Lab/AIL2-Builder", "19b8438b5d2357eedae291416d6de1e77c26ea13", "Apache-2.0", "LICENSE"),
    "cocli": ("yixian-huang/cocli", "4b5390bd7eda3f45233142fcaf0f98d1f39bf69e", "MIT", "LICENSE-MIT"),
    "roo-cline": ("robin-collins/Roo-Cline", "b21edece2756bc8e3e8ddf1c3f845b278d73bc82", "Apache-2.0", "LICENSE"),
    "cognitive-tribunal": ("ivi374forivi/cognitive-archaelogy-tribunal", "a1d07df497f8f5ba416ffc1ae93bec9db46547ad", "MIT", "LICENSE"),
    "radio-recognition": ("Singingkettle/ChangShuoRadioRecognition", "3b11de1def818bce40603347f25ca9c950441217", "Apache-2.0", "LICENSE"),
    "dvc": ("iterative/dvc", "be005a44b5edd06d730c1bab5fbd29c10f7db8ec", "Apache-2.0", "LICENSE"),
}
MAX_SESSIONS = 10
HISTORY_DIRS = {"cognitive-tribunal": ".specstory/history/"}
# Histories that hold real credentials (checked by hand), left out, by source and path:
# alpamayo's one that holds Cursor's composer state with its random per-chat encryption keys
# (speculativeSummarizationEncryptionKey).
WITH_CREDENTIALS = {
    ("alpamayo", ".specstory/history/2026-03-02_06-49Z-推理速度与论文不符.md"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    agents7.take(ap.parse_args().mirror, SOURCES, WITH_CREDENTIALS, MAX_SESSIONS, HISTORY_DIRS)


if __name__ == "__main__":
    main()
