#!/usr/bin/env python3
"""KeyHog (a tenth corpus build): the test cases each of KeyHog's detectors carries, a string
it must flag and one it must not.

    python3 testdata/eval/sources10.py --mirror <dir>

reads a bare clone of santhreal/keyhog under `<dir>/santhreal+keyhog/repo` at its HEAD,
replaces this build's examples in secrets.jsonl and its files in manifest.json, and writes
licenses/keyhog.txt. Every detector is a TOML file (`detectors/*.toml`): `[detector]` (id,
name), `[[detector.patterns]]` (a Rust regex, the `group` holding the secret) and
`[[detector.tests]]` with `test_positive` and `test_negative`. Labels are the detectors' own:

- a `test_positive` is an event, its secrets what the detector's patterns capture in it (the
  pattern's `group`, else the whole match, as KeyHog reports it), run with Python's `regex` module,
  case-insensitive as KeyHog compiles every pattern (`(?-i)` opts out). A capture is read so:
  a private key (PEM, PuTTY, SSH2) gives its body lines of sixteen characters or more; a URL
  its password, else the value of a key or token query parameter, else its last path segment
  when that looks random (a webhook's key, an RPC provider's key), else nothing; an Azure
  shared access signature its signature; a value the pattern's description calls `id:key`,
  `id:secret`, `username:password` or `numeric_id:token` the part after the colon; a value
  after an authorization scheme word (`KakaoAK …`) the part after the word; a connection
  string its `SharedAccessKey=`, `AccountKey=` or `Password=`; a whole match that starts
  with the name it is assigned to (`OKTA=00…`) the value; quotes and brackets a pattern
  took at the value's ends are taken off. A case none of
  the detector's secret patterns captures anything in is left out.
- a pattern whose expression demands three literal characters or more inside the captured
  value, a class of five characters or fewer counting as one (`ghp_`, `sk-ant-`,
  `gh[pousr]_`), is `known-format` when the secret is that whole value (or a private key's
  body); any other is `keyword-context`.
- a `test_negative` is a format negative, unless it holds a secret another case is labelled
  with, or a secret pattern of another detector captures a value in it that is no
  placeholder (then it is some other detector's positive).
Left out: detectors and patterns that find identifiers, user names, hosts, URLs without
credentials and public keys (by the detector's name, as the scanner sources do, and by each
pattern's description: client, app, account, project and key ids, usernames, endpoints,
publishable and client-safe keys, ARNs, resource paths), a captured value assigned to a name
that says it is an id, user or host (`AGORA_APP_ID=…`), and the cases written by a generator
rather than by hand (runs of separators and quotes between the name and the value,
`tableauhost  = =  ::  : ' = …`). Placeholders are no secrets (sources9.keep).

KeyHog's tests reuse a few filler values across detectors (`Kp4Qx7Rm2Sn5Tb8Vw3Yz…`,
`7b3e5d8c1a9f…`), so examples that share a secret, or hold one inside another's, are not
joined into one event (one family would be a hundred texts) but keep their own events under
one `group`, which fixes their split, so that no secret is in both halves. Otherwise the
corpus' rules apply as build.merge_new applies them: an example whose text or secret is
already in the corpus or in gitleaks' rule examples is left out, a label that is part of a
longer word of its text is dropped.
"""
import argparse
import json
import os
import re
import tomllib

import regex

import build
import scanners
import sources3
import sources8
import sources9

SOURCE = "keyhog"
REPO = "santhreal/keyhog"
LICENCE = "MIT OR Apache-2.0"
DETECTORS = "detectors/"

# Detectors whose values are public or no credential, though their names do not say so.
SKIP_DETECTORS = {
    "noaa-api-config",  # a User-Agent header
    "pubnub-subscribe-key",  # shipped in clients
    "pusher-app-key",  # the public half (the app secret is another value)
    "supabase-anon-key",  # the anonymous key shipped in clients
    "stytch-magic-link-credentials",  # the public token
    "aws-secrets-manager-arn",  # the ARN names the secret, it does not hold it
    "google-secret-manager-credentials",  # a resource path
    "firebase-storage-credentials",  # bucket names
}
# The id half of a key pair, though named a key: S3-compatible storage's access keys (the
# secret key is another value), LiveKit's and Vonage's API keys (beside an API secret).
ID_HALF = {"4everland-api-token": "access key", "ceph-rados-gateway-credentials": "access key",
           "minio-access-key": "access key", "seaweedfs-credentials": "access key",
           "livekit-api-credentials": "API Key with", "vonage-api-key": "API Key"}
# a detector id that says it finds an identifier, a user or a host
ID_SUFFIX = re.compile(r"-(?:id|ids|url|uri|host|hostname|username|user|domain|endpoint|region)$")
# pattern descriptions: public values, identifiers, places
PUBLIC_DESC = re.compile(r"(?i)\bpublic\b|publishable|\bARN\b|resource path|user-agent|client[- ]safe")
ID_DESC = re.compile(r"(?i)\b(?:client|app|application|access|api|account|user|site|project|partner|merchant|service|"
                     r"customer|developer|consumer|website|database|tenant|subscription|org|organization|auth|"
                     r"sub-?account|store|workspace|team|device|instance|key|integration|environment|env|space|zone|"
                     r"sender|property|tracking|publisher|campaign|list|form|board|channel|bot)[ _-]?(?:id|sid|ids)\b|"
                     r"\b[A-Za-z]*(?:Id|ID|Sid|SID)\b|\bsid\b|identifier|user ?name|e-?mail|DevEUI|account number|"
                     r"serial number")
SECRET_DESC = re.compile(r"(?i)secret|password|passphrase|token|credential|\bkey\b(?![ _-]?s?id)")
PLACE_DESC = re.compile(r"(?i)\b(?:url|uri|endpoint|host(?:name)?|domain|region|address)\b")
PLACE_SECRET = re.compile(r"(?i)secret|password|passphrase|token|key|credential|signature|signing|hook|auth")
# the name a value is assigned to, when it says the value is an id, a user or a host
ID_NAME = re.compile(r"(?i)(?:^|[^A-Za-z0-9])([A-Za-z0-9_.-]*?)[\"']?\s*[:=]+\s*[\"']?\s*$")
ID_NAME_WORD = re.compile(r"(?i)(?:^|[_.-])(?:id|sid|username|user|login|email|host|hostname|region)$|"
                          r"(?:appid|clientid|accountsid|accountid|userid|projectid|keyid)$")
# test strings a generator wrote: runs of separators and quotes no file holds
GENERATED = re.compile(r"""(?:[ \t]*[=:'"][ \t]*){8,}|(?:[ \t]+[-_.=:'"]+){5,}""")
# value readings (see the module's comment)
PAIR_DESC = re.compile(r"(?i)\bid:(?:key|secret)\b|username:password|numeric_id:")
SCHEME_WORD = re.compile(r"^(?:KakaoAK|Bearer|Basic|Token|Key)\s+(\S+)$", re.I)
URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
QUERY_SECRET = re.compile(r"(?i)[?&](?:key|api_?key|apikey|token|access_?token|auth|code|sig|signature|secret|"
                          r"password|servicekey)=([^&#\s\"']+)")
SAS = re.compile(r"(?:^|[?&])sig=([^&\s\"']+)")
CONNECTION_KEY = re.compile(r"(?i)(?:^|;)\s*(?:SharedAccessKey|AccountKey|Password|pwd)=([^;\s]+)")
NAMED_VALUE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*(?:\s*=|:\s)\s*[\"']?(.+?)[\"']?$")
MIN_SEGMENT = 16
PATH_OF = {}  # example id → the detector file it comes from


def compile_pattern(p):
    """A KeyHog pattern as KeyHog runs it: Rust syntax, case-insensitive unless `(?-i)`."""
    return regex.compile(p, regex.V0 | regex.IGNORECASE)


def python_pattern(p):
    """A Rust pattern as Python's re parses it, for its literal signature (sources8's
    conversion, then the flags anywhere, POSIX and Unicode classes and `\\z`)."""
    p = sources8.python_pattern(p)
    p = re.sub(r"\(\?-?[imsxU]+(?:-[imsxU]+)?\)", "", p)
    for posix, cls in (("alnum", "a-zA-Z0-9"), ("alpha", "a-zA-Z"), ("digit", "0-9"), ("xdigit", "0-9a-fA-F"),
                       ("upper", "A-Z"), ("lower", "a-z"), ("space", r"\s"), ("punct", r"!-/:-@\[-`{-~")):
        p = p.replace(f"[:{posix}:]", cls)
    p = re.sub(r"\\[pP]\{[^}]*\}|\\[pP][A-Za-z]", r"\\w", p)
    return p.replace(r"\z", r"\Z")


def signature_run(pattern, group):
    """sources8.signature_run of the pattern's secret group (0: the whole match)."""
    import re._parser as sre
    from re._constants import SUBPATTERN, BRANCH, MAX_REPEAT, MIN_REPEAT, ASSERT, ASSERT_NOT
    try:
        tree = list(sre.parse(python_pattern(pattern)))
    except Exception:
        return 0

    def find(tokens):
        for op, av in tokens:
            if op == SUBPATTERN:
                if av[0] == group:
                    return list(av[-1])
                g = find(av[-1])
            elif op == BRANCH:
                g = next((x for x in (find(a) for a in av[1]) if x is not None), None)
            elif op in (MAX_REPEAT, MIN_REPEAT):
                g = find(av[2])
            elif op in (ASSERT, ASSERT_NOT):
                g = find(av[1])
            else:
                continue
            if g is not None:
                return g
        return None

    tokens = tree if group == 0 else find(tree)
    if tokens is None:
        return 0
    return sources8.fixed_run(tokens)


def secret_detector(det):
    """A detector of credentials (not of identifiers, users, hosts or public values)."""
    did, name = det.get("id", ""), det.get("name", "")
    if did in SKIP_DETECTORS:
        return False
    if scanners.NOT_SECRET_NAME.search(name) and not scanners.KEEP_NAME.search(name):
        return False
    return not (ID_SUFFIX.search(did) and not scanners.KEEP_NAME.search(name))


def secret_pattern(did, pt):
    """A pattern that captures a credential, by its flags and description."""
    if pt.get("client_safe"):
        return False
    d = pt.get("description", "")
    if did in ID_HALF and ID_HALF[did] in d:
        return False
    if PUBLIC_DESC.search(d):
        return False
    if ID_DESC.search(d) and not SECRET_DESC.search(d):
        return False
    return not (PLACE_DESC.search(d) and not PLACE_SECRET.search(d))


def key_body(text, start):
    """The body lines (sixteen characters or more) of the private key whose armour or header
    starts at start, newlines written or escaped (`\\n` in a JSON string)."""
    body = []
    for ln in re.split(r"\r?\n|\\r?\\n", text[start:]):
        s = ln.strip().strip("\"',;")
        if re.match(r"-{4,5} ?END|Private-MAC:", s):
            break
        if re.match(r"-{4,5} ?BEGIN|PuTTY-User-Key-File|Private-Lines:|Public-Lines:", s):
            continue
        if len(s) >= 16 and ":" not in s and " " not in s and not s.startswith("-"):
            body.append(s)
    return body


def putty_private(text, start):
    """A PuTTY key's private lines (after `Private-Lines:`), sixteen characters or more."""
    out, inside = [], False
    for ln in text[start:].splitlines():
        s = ln.strip()
        if s.startswith("Private-Lines:"):
            inside = True
            continue
        if s.startswith("Private-MAC:"):
            break
        if inside and len(s) >= 16:
            out.append(s)
    return out


def url_secret(v):
    """The credential of a URL: its password, a key or token parameter, or a random last path
    segment; None when it holds none."""
    pw = scanners.url_password(v)
    if pw:
        return pw
    m = QUERY_SECRET.search(v)
    if m:
        return m.group(1)
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/?#]*", "", v, flags=re.I).split("?")[0].split("#")[0]
    segs = [s for s in path.split("/") if s]
    if segs:
        last = segs[-1]
        if (len(last) >= MIN_SEGMENT or len(last) >= 8 and re.search(r"\d", last) and re.search(r"[A-Za-z]", last)) \
                and re.fullmatch(r"[A-Za-z0-9_.~-]+", last):
            return last
    return None


def read_value(v, desc, text, start, group):
    """(secrets, reduced) of a captured value (see the module's comment)."""
    if "-----BEGIN" in v or re.search(r"-{4} ?BEGIN SSH2", v):
        pos = start + max(v.find("-----BEGIN"), v.find("---- BEGIN"), 0)
        return key_body(text, pos), False
    if v.startswith("PuTTY-User-Key-File"):
        return putty_private(text, start), False
    if v.startswith("?sv=") or "&sig=" in v and "sv=" in v:
        m = SAS.search(v)
        return ([m.group(1)] if m else []), True
    if URL.match(v):
        s = url_secret(v)
        return ([s] if s else []), True
    if PAIR_DESC.search(desc) and ":" in v:
        return [v.rsplit(":", 1)[1]], True
    m = SCHEME_WORD.match(v)
    if m:
        return [m.group(1)], True
    m = CONNECTION_KEY.search(v)
    if m and ";" in v:
        return [m.group(1)], True
    m = NAMED_VALUE.match(v)
    if group == 0 and m:
        return [m.group(1)], True  # a whole match that holds the name before its value
    return [v.rstrip("\"'`);,]}").lstrip("\"'`([{")], False


def assigned_to_id(text, start):
    """Whether the value at start is assigned to a name that says it is an id, user or host."""
    m = ID_NAME.search(text[max(0, start - 80):start])
    return bool(m and ID_NAME_WORD.search(m.group(1)))


def captures(patterns, text):
    """[(secret, class, position)] of what the patterns capture in text."""
    found = []
    for pt, rx, group, known in patterns:
        try:
            matches = list(rx.finditer(text, timeout=2))
        except TimeoutError:
            continue
        for m in matches:
            g = group if group <= rx.groups else 0
            if m.group(g) is None:
                continue
            v, start = m.group(g), m.start(g)
            if assigned_to_id(text, start):
                continue
            secrets, reduced = read_value(v, pt.get("description", ""), text, start, g)
            for s in secrets:
                s = s.strip()
                if s:
                    found.append((s, "known-format" if known and not reduced else "keyword-context", start))
    return found


def load(repo):
    """[(path, detector)] of every detector file."""
    out = []
    for path in sorted(repo.ls(DETECTORS)):
        if not path.endswith(".toml"):
            continue
        det = tomllib.loads(repo.show(path)).get("detector")
        if det:
            out.append((path, det))
    return out


def compiled(det):
    """The detector's secret patterns: (spec, compiled, group, known-format)."""
    out = []
    for pt in det.get("patterns") or []:
        if not secret_pattern(det["id"], pt):
            continue
        rx = compile_pattern(pt["regex"])
        group = pt.get("group", 0)  # KeyHog reports the whole match without one
        out.append((pt, rx, group, signature_run(pt["regex"], group) >= 3))
    return out


def keyhog(repo, out):
    detectors = [(p, d, compiled(d)) for p, d in load(repo) if secret_detector(d)]
    taken = set()
    negatives = []
    for path, det, pats in detectors:
        did, label = det["id"], f"{det['id']} {det['name']}"
        for i, t in enumerate(det.get("tests") or []):
            pos = t.get("test_positive")
            if pos and pos.strip() and not GENERATED.search(pos):
                found = captures(pats, pos)
                positions = {}
                for s, _, at in found:
                    positions.setdefault(s, set()).add(at)
                # a capture inside a longer one of the same case (a pattern allowing a
                # shorter variant) is the same secret
                kept = [s for s in positions if not any(s != o and s in o for o in positions)]
                secrets = sources9.keep(pos, kept, {s: len(positions[s]) for s in kept})
                if secrets:
                    cls = "known-format" if any(c == "known-format" for s, c, _ in found if s in secrets) \
                        else "keyword-context"
                    scanners.example(out, SOURCE, f"{SOURCE}:{did}:{i}", cls, label, pos, secrets)
                    PATH_OF[out[-1]["id"]] = path
                    taken.add(path)
            neg = t.get("test_negative")
            if neg and len(neg.strip()) >= 8 and not GENERATED.search(neg):
                negatives.append((path, did, i, label, neg))
    labelled = {s for e in out for s in e["secrets"]}
    for path, did, i, label, neg in negatives:
        if any(s in neg for s in labelled):
            continue
        other = [s for p, d, pats in detectors if d["id"] != did for s, _, _ in captures(pats, neg)]
        if any(len(s) >= sources9.MIN_SECRET and not sources9.placeholder(s) for s in other):
            continue  # a secret of another detector
        scanners.example(out, SOURCE, f"{SOURCE}:{did}:negative:{i}", "format-negative", label, neg, [])
        PATH_OF[out[-1]["id"]] = path
        taken.add(path)
    for path in sorted(taken):
        record(repo, path, TAKEN)


TAKEN = "detector test cases, test_positive and test_negative (labels: the detector's own patterns)"


def record(repo, path, what):
    sources3.record(SOURCE, repo, path, what)


def licence_text(repo):
    parts = []
    for name in ("LICENSE", "LICENSE-MIT", "LICENSE-APACHE", "NOTICE"):
        parts.append(f"==> {name} <==\n".encode() + repo.raw(name).rstrip(b"\n") + b"\n")
    return b"\n".join(parts)


def family_groups(examples):
    """Examples that share a secret (or hold one inside another's) get one group, the id of
    the family's first example, which fixes their split: KeyHog's tests reuse a few filler
    values (`Kp4Qx7Rm2Sn5Tb8Vw3Yz…`, `7b3e5d8c1a9f…`) across detectors, and joined into one
    event (sources3.join_shared) a family would be one event of a hundred texts."""
    for members in sources3.secret_families(examples):
        if len(members) > 1:
            for i in members:
                examples[i]["group"] = examples[members[0]]["id"]


def merge(corpus, new, seen_texts):
    """build.merge_new's rules without joining: an example whose text or secret is already in
    the corpus or in gitleaks' rule examples is left out, a label that is part of a longer
    word of its text is dropped (build.measurable), a negative holding a labelled secret of
    eight characters or more is left out, and duplicates of a text are taken once."""
    taken_text = {e["text"] for e in corpus}
    taken_secret = {s for e in corpus for s in e["secrets"]}
    out = []
    for e in (x for x in new if x["secrets"]):
        if e["text"] in taken_text or any(s in taken_secret or any(s in t for t in seen_texts) for s in e["secrets"]):
            continue
        e["secrets"] = build.measurable(e["text"], e["secrets"])
        if e["secrets"]:
            taken_text.add(e["text"])
            out.append(e)
    labelled = [s for e in corpus + out for s in e["secrets"] if len(s) >= 8]
    for e in (x for x in new if not x["secrets"]):
        if e["text"] in taken_text or any(s in e["text"] for s in labelled):
            continue
        taken_text.add(e["text"])
        out.append(e)
    for e in out:
        e["split"] = build.split_of(e.get("group") or e["id"])
    return out


def add(mirror):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json."""
    repo = build.Repo(mirror, REPO)
    sources3.SOURCES3[SOURCE] = (REPO, LICENCE)
    new = []
    keyhog(repo, new)
    family_groups([e for e in new if e["secrets"]])
    here = sources3.HERE
    with open(os.path.join(here, "secrets.jsonl")) as f:
        corpus = [e for e in map(json.loads, f) if e["source"] != SOURCE]
    with open(os.path.join(here, "manifest.json")) as f:
        old_manifest = [m for m in json.load(f) if m["source"] != SOURCE]
    with open(os.path.join(here, "..", "gitleaks", "examples.jsonl")) as f:
        gitleaks_texts = [t for r in map(json.loads, f) for t in r["tps"]]
    added = merge(corpus, new, gitleaks_texts)
    with open(os.path.join(here, "secrets.jsonl"), "w") as f:
        for e in corpus + added:
            f.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    with open(os.path.join(here, "manifest.json"), "w") as f:
        used = {PATH_OF[e["id"]] for e in added}
        files = [m for m in sources3.manifest if m["source"] == SOURCE and m["path"] in used]
        json.dump(old_manifest + files, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(here, "licenses", "keyhog.txt"), "wb") as f:
        f.write(licence_text(repo))
    sources3.report(added)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
