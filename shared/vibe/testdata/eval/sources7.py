#!/usr/bin/env python3
"""CredData (a seventh corpus build): lines of real open-source repositories that secret
scanners flagged, each reviewed by hand and labelled as a credential or not.

    python3 testdata/eval/sources7.py --mirror <dir>

reads a bare clone of Samsung/CredData under `<dir>/Samsung+CredData/repo` (its `meta/*.csv`
labels and `snapshot.json`, which names each repository and the commit the labels were made
at) and, for every repository it names, a bare clone under `<dir>/<owner>+<name>/repo`; a
repository whose clone or commit is missing is reported and left out. It replaces this
build's examples in secrets.jsonl and its files in manifest.json, and writes
licenses/creddata.txt (CredData's own licence; each file taken is under its repository's
licence, which the manifest names by the file it was read from).

CredData names a file by the first eight hex digits of the SHA-256 of its path in the
repository, and a label by its lines and the value's offsets on them. Labels:

- `T` (a credential, test and example directories included, by CredData's review rules) is
  an example: the labelled lines, with up to two lines before them as the file has them;
  the secret is the labelled value. A value with a literal signature of a token format
  (a private key's armour, `eyJ`, `AKIA`, `ghp_`, `xox?-`, …) is `known-format`, any other
  (found by the name, flag, header or URL around it) `keyword-context`. Labels whose every
  category names an identifier rather than a secret (UUID, AWS client id, S3 bucket,
  Firebase domain, WeChat app id, nonce, salt) are left out, as in the first build's
  CredSweeper source; so are public keys.
- `F` (a flagged line that is no credential) is a format negative: the line with the same
  context, unless a credential is in it. `X` (a test value, example or placeholder whose
  nature the reviewers left open) is left out.

Every credential labelled `T` is obfuscated before it is written: each letter and digit is
replaced by another of its class (hex stays hex, base64 stays base64), by a generator seeded
with the value, so that rebuilds write the same bytes; the literal signature of a format
and a private key's armour are kept, a GitHub-style token's CRC-32 checksum is computed
again and a JWT keeps its header and the JSON shape of its claims. CredData's own download
script obfuscates the same way; no credential of a real repository is copied here.

A repository's examples all go to one half, chosen by the SHA-256 of `creddata:<owner/name>`
(the `group` of each example), so that files of one project, which share their secrets and
their style, are never split between the halves; an example whose secret is also in the
other half is left out of the development half. At most PER_REPO examples of each kind
(positive, negative) are taken from a repository, chosen by the SHA-256 of their id, so that
the few repositories with thousands of test vectors (OpenSSL, the AWS SDKs) do not outweigh
the others.
"""
import argparse
import base64
import binascii
import collections
import csv
import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
import zlib

import build
import sources3

SOURCE = "creddata"
REPO = "Samsung/CredData"
LICENCE = "Apache-2.0 (labels); each file under its repository's licence"
HERE = os.path.dirname(os.path.abspath(__file__))

PER_REPO = 40
CONTEXT = 2  # lines before the labelled ones
MAX_LINE = 1500  # a longer line is cut around the value

# CredSweeper categories of identifiers and other values that are not secrets by themselves.
NOT_SECRET = {"UUID", "AWS S3 Bucket", "Firebase Domain", "Tencent WeChat API App ID", "Nonce", "Salt",
              "AWS Client ID"}

# Literal signatures of token formats: a value holding one is known-format.
SIGNATURE = re.compile(
    r"-----BEGIN|^eyJ|^(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{12}|^AIza|^ya29\.|^1//0|"
    r"^xox[abposre]-|^xapp-|hooks\.slack\.com/|^gh[pousr]_|^github_pat_|^glpat-|^glsa_|^gl[a-z]{2,4}-|"
    r"^[sr]k_(?:live|test)_|^SG\.|^key-[0-9a-f]{32}$|^PMA[KT]-|^pplx-|^sk-ant-|^sk-(?:proj-)?[A-Za-z0-9]{20}|"
    r"^SWMTKN-1-|^dckr_(?:pat|oat)_|^npm_[A-Za-z0-9]{36}$|^S[ACNOPUX]A[A-Z2-7]{55}$|^(?:AC|SK)[0-9a-f]{32}$|"
    r"^akab-|^00D[A-Za-z0-9]{12,15}!|^AAAA[A-Za-z0-9_-]{7}:|^shp(?:at|ca|pa|ss)_|^hf_|^sq0[a-z]{3}-|^EAA[A-Za-z0-9]{20}|"
    r"^AccountKey=|^SharedAccessSignature|^AIKey|^[a-z0-9]{32}-us[0-9]{1,2}$")
FORMAT_CATEGORIES = {"PEM Private Key", "BASE64 Private Key", "BASE64 encoded PEM Private Key", "JSON Web Token",
                     "AWS Multi", "Google API Key", "Google Multi", "Slack Token", "MailGun API Key",
                     "Grafana Provisioned API Key", "Grafana Service Account Token", "Docker Swarm Token",
                     "Perplexity API Key", "Postman Credentials", "Stripe Credentials", "Anthropic API Key",
                     "Github Classic Token", "Google OAuth Access Token", "Google OAuth Refresh Token",
                     "NKEY Seed", "Twilio Credentials", "Akamai Credentials"}


def sha(s):
    return hashlib.sha256(s.encode()).hexdigest()


# ---- obfuscation ----

HEX_LOWER = "0123456789abcdef"
HEX_UPPER = "0123456789ABCDEF"
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
KEEP_PREFIX = re.compile(
    r"^(?:-----BEGIN [A-Z0-9 ]+-----|AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|AIza|ya29\.|1//0|xox[abposre]-|xapp-|"
    r"(?:https?://)?hooks\.slack\.com/services/|gh[pousr]_|github_pat_|glpat-|glsa_|[sr]k_(?:live|test)_|SG\.|key-|PMA[KT]-|"
    r"pplx-|sk-ant-api03-|sk-proj-|sk-|SWMTKN-1-|dckr_pat_|dckr_oat_|npm_|S[ACNOPUX]A|AC|akab-|00D|shp(?:at|ca|pa|ss)_|hf_|"
    r"Basic |Bearer |OAuth |Token |token |AccountKey=|SharedAccessSignature )")


def scramble(value, rnd):
    """Each letter and digit replaced by another of its class: a value whose letters are all
    hex digits keeps to them, a percent escape (%2F) is kept."""
    alnum = "".join(c for c in value if c.isascii() and c.isalnum())
    digits = "0123456789"
    if re.fullmatch(r"[0-9a-f]*[a-f][0-9a-f]*", alnum):
        lower, upper = "abcdef", "ABCDEF"
    elif re.fullmatch(r"[0-9A-F]*[A-F][0-9A-F]*", alnum):
        lower, upper = "abcdef", "ABCDEF"
    elif len(alnum) >= 16 and re.fullmatch(r"[A-Z2-7]+", alnum) and re.search(r"[2-7]", alnum):
        lower, upper, digits = "", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "234567"  # base32 (NKEY seeds, TOTP)
    else:
        lower, upper = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = []
    i = 0
    while i < len(value):
        c = value[i]
        if c == "%" and re.fullmatch(r"[0-9A-Fa-f]{2}", value[i + 1:i + 3]):
            out.append(value[i:i + 3])
            i += 3
            continue
        if c.isascii() and c.isdigit():
            out.append(rnd.choice(digits))
        elif "a" <= c <= "z":
            out.append(rnd.choice(lower))
        elif "A" <= c <= "Z":
            out.append(rnd.choice(upper))
        else:
            out.append(c)
        i += 1
    return "".join(out)


def base62(n, width):
    s = ""
    while n:
        n, r = divmod(n, 62)
        s = B62[r] + s
    return s.rjust(width, "0")


def scramble_jwt(value, rnd):
    parts = value.split(".")
    out = [parts[0]]  # the header names the algorithm: public, kept
    for p in parts[1:]:
        try:
            raw = base64.urlsafe_b64decode(p + "=" * (-len(p) % 4))
            claims = json.loads(raw)
        except Exception:
            out.append(scramble(p, rnd))
            continue
        text = raw.decode("utf-8", "replace")
        # letters and digits inside string values change; keys, punctuation and length stay
        pieces = re.split(r'("(?:[^"\\]|\\.)*")', text)
        for i, piece in enumerate(pieces):
            if piece.startswith('"') and i + 1 < len(pieces) and not pieces[i + 1].lstrip().startswith(":"):
                pieces[i] = '"' + scramble(piece[1:-1], rnd) + '"'
        enc = base64.urlsafe_b64encode("".join(pieces).encode()).decode().rstrip("=")
        out.append(enc if len(enc) == len(p) else scramble(p, rnd))
    return ".".join(out)


def basic_pair(value):
    """(prefix, user:password, padded) when value is HTTP Basic credentials in base64."""
    m = re.fullmatch(r"((?:Basic )?)([A-Za-z0-9+/]{8,}(=*))", value)
    if not m:
        return None
    b64 = m.group(2)
    try:
        raw = base64.b64decode(b64 + "=" * (-len(b64) % 4), validate=True).decode("ascii")
    except Exception:
        return None
    if raw.count(":") != 1 or not raw.isprintable() or raw.startswith(":"):
        return None
    return m.group(1), raw, bool(m.group(3))


def obfuscate(value):
    """The value with its secret part replaced (see the module's comment); same length."""
    rnd = random.Random(sha("creddata:" + value))
    if "-----BEGIN" in value or "PRIVATE KEY" in value:
        # a private key's body, however its lines are written (raw, \n-escaped, quoted and
        # joined): every base64 run but its first four characters; the armour is kept
        return re.sub(r"[A-Za-z0-9+/=]{16,}", lambda m: m.group(0)[:4] + scramble(m.group(0)[4:], rnd), value)
    if value.startswith("eyJ") and value.count(".") >= 2:
        return scramble_jwt(value, rnd)
    basic = basic_pair(value)
    if basic:
        head, pair, pad = basic
        user, _, password = pair.partition(":")
        enc = base64.b64encode((scramble(user, rnd) + ":" + scramble(password, rnd)).encode()).decode()
        return head + (enc if pad else enc.rstrip("="))
    m = KEEP_PREFIX.match(value)
    head = m.group(0) if m else ""
    body = scramble(value[len(head):], rnd)
    if re.fullmatch(r"(?:gh[pousr]|npm)_[A-Za-z0-9]{36}", value):
        rest = body[:30]
        body = rest + base62(zlib.crc32(rest.encode()), 6)
    out = head + body
    if out == value and value:  # nothing to scramble (all punctuation): keep as is
        return value
    return out


# ---- reading the labels ----

class Project:
    def __init__(self, mirror, name, commit):
        self.name = name
        self.commit = commit
        self.git = os.path.join(mirror, name.replace("/", "+"), "repo")
        if os.path.isdir(os.path.join(self.git, ".git")):  # a clone with a work tree
            self.git = os.path.join(self.git, ".git")

    def present(self):
        if not os.path.isdir(self.git):
            return False
        r = subprocess.run(["git", "--git-dir", self.git, "cat-file", "-t", self.commit], capture_output=True)
        return r.stdout.strip() == b"commit"

    def files(self):
        out = subprocess.run(["git", "--git-dir", self.git, "ls-tree", "-r", "-z", "--name-only", self.commit],
                             check=True, capture_output=True).stdout.decode("utf-8", "surrogateescape")
        return [p for p in out.split("\0") if p]

    def blob(self, path):
        return subprocess.run(["git", "--git-dir", self.git, "cat-file", "blob", f"{self.commit}:{path}"],
                              check=True, capture_output=True).stdout


def text_lines(data):
    """The file's lines as CredSweeper numbers them."""
    text = data.decode("utf-8", "replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


Label = collections.namedtuple("Label", "truth start end vstart vend categories private")


def read_labels(credata_repo, repo_id):
    rows = collections.defaultdict(list)
    name = f"meta/{repo_id}.csv"
    try:
        data = credata_repo.raw(name).decode()
    except subprocess.CalledProcessError:
        return rows, name
    for r in csv.DictReader(io.StringIO(data)):
        vs = int(r["ValueStart"]) if r["ValueStart"] not in ("", "-1") else -1
        ve = int(r["ValueEnd"]) if r["ValueEnd"] not in ("", "-1") else -1
        ext = os.path.splitext(r["FilePath"])[1].lower()
        rows[(r["FileID"], ext)].append(Label(r["GroundTruth"], int(r["LineStart"]), int(r["LineEnd"]), vs, ve,
                                              set(r["Category"].split(":")), r["CryptographyKey"]))
    return rows, name


def value_of(lines, lab):
    if lab.end > len(lines) or lab.vstart < 0:
        return None
    if lab.start == lab.end:
        line = lines[lab.start - 1]
        end = lab.vend if lab.vend >= 0 else len(line)
        return line[lab.vstart:end] if lab.vstart < end <= len(line) else None
    first = lines[lab.start - 1][lab.vstart:]
    last = lines[lab.end - 1]
    last = last[:lab.vend] if lab.vend >= 0 else last
    return "\n".join([first] + lines[lab.start:lab.end - 1] + [last])


def random_looking(v):
    """A value that is no word or name: letters with digits, or long."""
    return len(v) >= 8 and bool(re.search(r"[0-9]", v) and re.search(r"[A-Za-z]", v)) or len(v) >= 20


def place(lines, lab, value, obfuscated):
    """Writes the obfuscated value over the labelled one (same length, same line breaks)."""
    parts = obfuscated.split("\n")
    if len(parts) != lab.end - lab.start + 1:
        return
    for k, part in enumerate(parts):
        n = lab.start - 1 + k
        line = lines[n]
        a = lab.vstart if k == 0 else 0
        b = a + len(part)
        if line[a:b] == value.split("\n")[k]:
            lines[n] = line[:a] + part + line[b:]


def is_secret_label(lab):
    return lab.truth == "T" and not lab.categories <= NOT_SECRET and lab.private != "Public"


def class_of(value, lab):
    if SIGNATURE.search(value) or lab.categories & FORMAT_CATEGORIES:
        return "known-format"
    return "keyword-context"


def window(line, lo, hi):
    """A long line cut around [lo, hi)."""
    if len(line) <= MAX_LINE:
        return line
    a = max(0, min(lo, len(line)) - MAX_LINE // 2)
    return line[a:a + max(MAX_LINE, hi - a + 40)]


def project_examples(proj, labels, out):
    """Appends the examples of one repository; returns the files read."""
    by_id = collections.defaultdict(list)
    for path in proj.files():
        ext = os.path.splitext(path)[1].lower()
        key = (sha(path)[:8], ext)
        if key in labels:
            by_id[key].append(path)
    files = {}  # key → (path, lines, [(label, original value)])
    for key, labs in sorted(labels.items()):
        paths = by_id.get(key, [])
        if len(paths) != 1:
            continue  # not found, or two paths of one hash: cannot be told
        try:
            lines = text_lines(proj.blob(paths[0]))
        except subprocess.CalledProcessError:
            continue  # a file the clone lacks (too large, a submodule)
        files[key] = (paths[0], lines, [])
    # every credential labelled in the repository is obfuscated where it is labelled, and a
    # random-looking one also wherever else it stands in the repository's files as a token of
    # its own; a word (a password that is a name, `admin`, `zabbix`) only where labelled,
    # so that the names and paths it is also part of stay as written
    clear = {}
    anywhere = {}
    for key, (path, lines, secrets) in files.items():
        for lab in labels[key]:
            if lab.truth != "T":
                continue
            v = value_of(lines, lab)
            if not v or not v.strip():
                continue
            if "\n" not in v or "PRIVATE KEY" in v:
                secrets.append((lab, v))
                clear[v] = obfuscate(v)
                pieces = [v]
            else:
                # a value over several lines that is no private key spans a pair (an id on
                # one line, its secret on the next) with the names between them, which
                # cannot be told apart: left out as a label, its long pieces obfuscated
                pieces = re.findall(r"[A-Za-z0-9+/=_.-]{16,}", v)
            for piece in pieces:
                if random_looking(piece):
                    anywhere[piece] = obfuscate(piece)
    ordered = sorted(anywhere, key=len, reverse=True)
    taken = []
    for key, (path, lines, secrets) in sorted(files.items()):
        labs = labels[key]
        olines = list(lines)
        for lab, v in sorted(secrets, key=lambda lv: (lv[0].start, lv[0].vstart), reverse=True):
            place(olines, lab, v, clear[v])
        text = "\n".join(olines)
        for v in ordered:
            if v in text:
                text = re.sub(r"(?<![A-Za-z0-9_])" + re.escape(v) + r"(?![A-Za-z0-9_])", lambda _: anywhere[v], text)
        olines = text.split("\n")
        if len(olines) != len(lines):
            continue  # a replacement changed the line count: cannot be told
        t_lines = set()  # lines holding a credential: no negative's
        for lab in labs:
            if lab.truth == "T":
                t_lines.update(range(lab.start, lab.end + 1))
        groups = collections.defaultdict(list)  # (start, end) → labels
        for lab in labs:
            groups[(lab.start, lab.end)].append(lab)
        used = False
        for (start, end), ls in sorted(groups.items()):
            if end > len(lines):
                continue
            lo = max(1, start - CONTEXT)
            span = olines[lo - 1:end]
            vs = [l.vstart for l in ls if l.vstart >= 0]
            event = "\n".join(window(l, min(vs) if vs else 0, max(vs) + 80 if vs else 0) for l in span)
            ident = f"{SOURCE}:{proj.name}:{path}:{start}"
            pos = [(l, v) for l, v in secrets if lo <= l.start and l.end <= end]
            mine = [(l, v) for l, v in pos if (l.start, l.end) == (start, end)]
            if any(l.truth == "T" for l in ls):
                kept = [(l, v) for l, v in mine if is_secret_label(l)]
                if not kept:
                    continue
                originals = {v for l, v in pos if is_secret_label(l) and clear[v] in event}
                if not originals or any(build.is_placeholder(v) for v in originals):
                    continue
                vals = sorted(clear[v] for v in originals)
                cls = "known-format" if any(class_of(v, l) == "known-format" for l, v in kept) else "keyword-context"
                cats = sorted({c for l, _ in kept for c in l.categories})
                out.append({"id": ident, "group": f"{SOURCE}:{proj.name}", "source": SOURCE, "class": cls,
                            "label": ":".join(cats), "text": event, "secrets": vals})
                used = True
            elif all(l.truth == "F" for l in ls):
                if any(n in t_lines for n in range(lo, end + 1)):
                    # a credential in the context: the lines alone
                    span = olines[start - 1:end]
                    if any(n in t_lines for n in range(start, end + 1)):
                        continue
                    event = "\n".join(window(l, min(vs) if vs else 0, max(vs) + 80 if vs else 0) for l in span)
                if not event.strip():
                    continue
                cats = sorted({c for l in ls for c in l.categories})
                out.append({"id": ident, "group": f"{SOURCE}:{proj.name}", "source": SOURCE,
                            "class": "format-negative", "label": ":".join(cats), "text": event, "secrets": []})
                used = True
        if used:
            taken.append(path)
    return taken


def cap(examples):
    """At most PER_REPO positives and PER_REPO negatives of each repository, by id hash."""
    by = collections.defaultdict(list)
    for e in examples:
        by[(e["group"], bool(e["secrets"]))].append(e)
    out = []
    for k in sorted(by):
        out.extend(sorted(by[k], key=lambda e: sha(e["id"]))[:PER_REPO])
    return out


def licence_files(proj):
    return sorted(p for p in proj.files() if "/" not in p and re.search(r"(?i)licen[cs]e|copying", p))


def collect(mirror, new, manifest):
    cd = build.Repo(mirror, REPO)
    snapshot = json.loads(cd.show("snapshot.json"))
    missing = []
    for rid, url in sorted(snapshot.items(), key=lambda kv: kv[1]):
        name = url.split("github.com/")[1].strip("/").removesuffix(".git")
        proj = Project(mirror, name, rid[:40])
        meta_id = f"{binascii.crc32(binascii.unhexlify(rid)):08x}"
        if not proj.present():
            missing.append(name)
            continue
        labels, meta_name = read_labels(cd, meta_id)
        if not labels:
            continue
        mine = []
        taken = project_examples(proj, labels, mine)
        mine = cap(mine)
        used = {e["id"].split(":", 2)[2].rsplit(":", 1)[0] for e in mine}
        if not mine:
            continue
        new.extend(mine)
        lic = licence_files(proj)
        for path in taken:
            if path in used:
                manifest.append({"source": SOURCE, "repo": name, "commit": proj.commit, "path": path,
                                 "licence": "see " + (", ".join(lic) if lic else "the repository (no licence file at its root)"),
                                 "taken": f"lines labelled in CredData's {meta_name} (T: labels, obfuscated; F: negatives)"})
        manifest.append({"source": SOURCE, "repo": REPO, "commit": cd.commit, "path": meta_name,
                         "licence": "Apache-2.0", "taken": f"labels of {name}"})
    manifest.append({"source": SOURCE, "repo": REPO, "commit": cd.commit, "path": "snapshot.json",
                     "licence": "Apache-2.0", "taken": "repositories and commits"})
    return missing


def one_half(examples):
    """An example whose secret is also in the other half is left out of the development one."""
    held = {s for e in examples if e["split"] == "held" for s in e["secrets"]}
    return [e for e in examples if e["split"] == "held" or not any(s in held for s in e["secrets"])]


def add(mirror):
    new, manifest = [], []
    missing = collect(mirror, new, manifest)
    for e in new:
        e["split"] = build.split_of(e["group"])
    new = one_half(new)
    with open(os.path.join(HERE, "secrets.jsonl")) as f:
        corpus = [e for e in map(json.loads, f) if e["source"] != SOURCE]
    with open(os.path.join(HERE, "manifest.json")) as f:
        old_manifest = [m for m in json.load(f) if m["source"] != SOURCE]
    with open(os.path.join(HERE, "..", "gitleaks", "examples.jsonl")) as f:
        gitleaks_texts = [t for r in map(json.loads, f) for t in r["tps"]]
    # merge_new joins examples that share a secret; within a repository they share the half
    added = []
    for half in ("dev", "held"):
        part = build.merge_new(corpus + added, [e for e in new if e["split"] == half], gitleaks_texts)
        added.extend(part)
    for e in added:
        e["split"] = build.split_of(e["group"])
    with open(os.path.join(HERE, "secrets.jsonl"), "w") as f:
        for e in corpus + added:
            f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(old_manifest + manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(HERE, "licenses", "creddata.txt"), "wb") as f:
        f.write(build.Repo(mirror, REPO).raw("LICENSE"))
    sources3.report(added)
    if missing:
        print(f"{len(missing)} repositories missing: {', '.join(missing)}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
