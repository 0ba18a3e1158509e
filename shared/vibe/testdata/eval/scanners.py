"""The secret scanners' test suites as evaluation sources (imported by build.py).

Each function appends examples {id, source, split, class, label, text, secrets} to out and
records every file it read. Labels are the scanners' own: the examples and negative examples
of their rules, their test snapshots' expected findings, the values their tests say must be
reported. Where a licence forbids copying (TruffleHog, AGPL-3.0) only facts are used (a
detector's keywords and the shape of its token) and the examples are generated here.
"""
import ast
import base64
import hashlib
import json
import random
import re
import subprocess

import regex  # Rust-style patterns (noseyparker, kingfisher): (?x), \p{..}, POSIX classes
import yaml


def split_of(ident):
    return "dev" if hashlib.sha256(ident.encode()).digest()[0] % 2 == 0 else "held"


def example(out, src, ident, cls, label, text, secrets):
    out.append({"id": ident, "source": src, "split": split_of(ident), "class": cls,
                "label": label, "text": text, "secrets": sorted(set(secrets))})


# Rule names that mark identifiers, public halves or non-secret values rather than
# credentials: ids, user names, domains, buckets, public keys.
NOT_SECRET_NAME = re.compile(r"(?i)\b(?:ids?|identifier|username|user name|domain|bucket|resource name|url|uri|"
                             r"public|publishable|recipient|account name|organization|org|region|endpoint|host|"
                             r"instance|app id|client id|reporter id|product id|key id|project)\b")
KEEP_NAME = re.compile(r"(?i)webhook|password|credential|secret|connection|token")


def literal_run(pattern):
    """The longest run of literal characters a match of the capture group (or the whole
    pattern) must contain: the token's signature, when it has one."""
    try:
        import re._parser as sre
        from re._constants import LITERAL, SUBPATTERN, MAX_REPEAT, MIN_REPEAT
    except ImportError:
        return 0
    try:
        tree = sre.parse(pattern)
    except Exception:
        return 0

    def longest(tokens):
        best = cur = 0
        for op, av in tokens:
            if op == LITERAL:
                cur += 1
                best = max(best, cur)
                continue
            if op == SUBPATTERN:
                best = max(best, longest(av[-1]))
            elif op in (MAX_REPEAT, MIN_REPEAT) and av[0] >= 1:
                best = max(best, longest(av[2]))
            cur = 0
        return best

    g = first_group(list(tree))
    return longest(g if g is not None else list(tree))


def first_group(tokens):
    """The first capturing group of a parsed pattern (re._parser's sequence), None without one."""
    from re._constants import SUBPATTERN
    for op, av in tokens:
        if op == SUBPATTERN and av[0] is not None:
            return av[-1]
        if op == SUBPATTERN:
            g = first_group(av[-1])
            if g is not None:
                return g
    return None


def rust_pattern(pat):
    """A noseyparker/kingfisher pattern for Python's regex module."""
    return regex.compile(pat, regex.V0)


# Rules whose secret is not their last capture group (read from the rules' patterns and
# comments): rule id → the groups that may hold the secret, the first that matched wins.
SECRET_GROUP = {
    "kingfisher.credentials.1": (2,),
    "kingfisher.databricks.2": (1,),
    "kingfisher.huggingface.1": (1, 2),
    "kingfisher.slack.2": (1,),
    "kingfisher.readme.1": (1,),
    "kingfisher.privkey.1": (1,),
    "kingfisher.privkey.2": (1,),
    "kingfisher.discord.1": (2,),
    "kingfisher.twitter.v2.1": (1,),
    "np.azure.2": (3,),
    "np.mongodb.1": (2,),
    "np.postgres.1": (2,),
    "np.generic.8": (3,),
    "np.google.6": (2, 3),
}
SKIP_RULES = {"kingfisher.uri.1", "kingfisher.youtube.1", "kingfisher.azurestorage.name.1", "np.auth0.1",
              "kingfisher.databricks.3", "kingfisher.generic.8", "kingfisher.gradle.1"}


def rule_secrets(rid, rx, text):
    """The secrets a rule's pattern finds in text: its secret group of every match (a whole
    match that is a URL with credentials: its password)."""
    found = []
    for m in rx.finditer(text):
        if rx.groups == 0:
            v = m.group(0)
            found.append(url_password(v) or v)
            continue
        groups = SECRET_GROUP.get(rid)
        if groups is None:
            vals = [i for i, v in enumerate(m.groups(), 1) if v]
            groups = vals[-1:]
        v = next((m.group(g) for g in groups if m.group(g)), None)
        if v:
            found.append(url_password(v) or v)
    return [s.strip() for s in found if s and len(s.strip()) >= 4]


def yaml_rules(repo, prefix):
    rules = []
    for path in repo.ls(prefix):
        if not path.endswith((".yml", ".yaml")):
            continue
        try:
            doc = yaml.safe_load(repo.show(path)) or {}
        except yaml.YAMLError:
            continue
        for r in doc.get("rules") or []:
            if isinstance(r, dict) and r.get("pattern") and r.get("id"):
                rules.append((path, r))
    return rules


def rule_class(r):
    cats = set(r.get("categories") or [])
    if cats & {"fuzzy", "generic"}:
        return "keyword-context"
    return "known-format" if literal_run(r["pattern"]) >= 3 else "keyword-context"


def np_style(src, repo, prefix, out, record, is_placeholder):
    """noseyparker and kingfisher rules: every positive example is an event, its secrets are
    what the rule's own pattern captures in it; negative examples no rule of the same set
    matches are format negatives."""
    rules = yaml_rules(repo, prefix)
    compiled = []
    for path, r in rules:
        try:
            compiled.append((path, r, rust_pattern(r["pattern"])))
        except Exception:
            continue
    used_paths = set()
    for path, r, rx in compiled:
        rid, name = r["id"], r.get("name", "")
        if rid in SKIP_RULES or "test" in (r.get("categories") or []):
            continue
        secretive = not (NOT_SECRET_NAME.search(name) and not KEEP_NAME.search(name))
        for i, ex in enumerate(r.get("examples") or []):
            if not isinstance(ex, str) or not secretive:
                continue
            secrets = [s for s in rule_secrets(rid, rx, ex) if not is_placeholder(s)]
            if not secrets:
                continue
            example(out, src, f"{src}:{rid}:example:{i}", rule_class(r), f"{rid} {name}", ex, secrets)
            used_paths.add(path)
        for i, ex in enumerate(r.get("negative_examples") or []):
            if not isinstance(ex, str) or len(ex.strip()) < 8:
                continue
            if any(other.search(ex) for _, o, other in compiled if o["id"] != rid and not NOT_SECRET_NAME.search(o.get("name", ""))):
                continue  # a secret of another rule
            example(out, src, f"{src}:{rid}:negative:{i}", "format-negative", f"{rid} {name}", ex, [])
            used_paths.add(path)
    for p in sorted(used_paths):
        record(src, repo, p, "rule examples and negative examples (labels: the rule's own pattern)")


# secretlint rules that flag something other than a secret value, or that need options.
SL_SKIP = {"example", "filter-comments", "pattern", "no-dotenv", "no-homedir"}
SL_NOT_SECRET = {"AWSAccountID", "AzureTenantId", "AzureClientId", "AWSAccessKeyID"}
SL_CONTEXT = {"AWSSecretAccessKey", "AzureClientSecret", "BasicAuth", "MongoDBConnection", "MySQLConnection",
              "PostgreSQLConnection", "Npmrc_authToken", "PackageJSON_xOauthToken", "K8S_SECRET", "secp256k1Priv"}


def url_password(v):
    m = re.search(r"://[^:/@\s]*:([^\s/]+)@[^@\s]*$", v.split("?")[0].split("#")[0]) or re.search(r"://[^:/@\s]*:(.+)@", v)
    return m.group(1) if m else None


def secretlint(repo, out, record, is_placeholder):
    """secretlint's rule snapshots: input and output.json per case; a message's data holds
    the secret (a URL's password is taken out of it); cases without messages are format
    negatives."""
    src = "secretlint"
    for path in repo.ls("packages/@secretlint/"):
        parts = path.split("/")
        if len(parts) < 7 or parts[4] != "snapshots" or parts[-1] != "output.json":
            continue
        rule = parts[2].removeprefix("secretlint-rule-")
        if not parts[2].startswith("secretlint-rule-") or rule in SL_SKIP or rule.startswith("preset"):
            continue
        case = "/".join(parts[5:-1])
        base = "/".join(parts[:-1])
        if any(p.startswith(base + "/options") for p in repo.ls(base + "/")):
            continue  # the case needs rule options
        doc = json.loads(repo.show(path))
        text = doc.get("sourceContent")
        if not isinstance(text, str) or doc.get("sourceContentType") != "text" or not text.strip():
            continue
        secrets, ids = [], set()
        for m in doc.get("messages") or []:
            mid = m.get("messageId", "")
            ids.add(mid)
            if mid in SL_NOT_SECRET:
                continue
            data = m.get("data") or {}
            for k in ("TOKEN", "KEY", "SECRET", "CREDENTIAL", "URI", "URL", "ID"):
                v = data.get(k)
                if not isinstance(v, str):
                    continue
                if k in ("CREDENTIAL", "URI"):
                    v = url_password(v)
                elif k == "URL":
                    v = v.rsplit("/", 1)[-1] if "hooks.slack.com" in v else v
                if v and "PRIVATE KEY" in v:
                    # A key's body lines, as the file spells them (\n or a JSON \\n).
                    secrets.extend(ln for ln in re.split(r"\\n|\n", v) if len(ln) >= 16 and "-----" not in ln and ln in text)
                elif v and v in text and not is_placeholder(v):
                    secrets.append(v)
                break
        if secrets:
            cls = "keyword-context" if ids & SL_CONTEXT else "known-format"
            example(out, src, f"{src}:{rule}:{case}", cls, f"{rule} {','.join(sorted(ids))}", text, secrets)
        elif not doc.get("messages"):
            example(out, src, f"{src}:{rule}:{case}", "format-negative", rule, text, [])
        else:
            continue
        record(src, repo, path, "snapshot input and expected findings (labels)")


# Whispers' fixtures: which files hold secrets, from its tests (test_secrets.py): by value
# (every value reported holds "hardcoded"), or by key name.
WHISPERS_BY_KEY = {
    "privatekeys.yml": ["access", "key", "rsa", "dsa", "ec", "openssh"],
    "privatekeys.json": ["access", "key", "rsa", "dsa", "ec", "openssh"],
    "privatekeys.xml": ["access", "key", "rsa", "dsa", "ec", "openssh"],
    "aws.yml": ["aws_key", "aws_token"], "aws.json": ["aws_key", "aws_token"], "aws.xml": ["aws_key", "aws_token"],
    "jenkins.xml": ["noncompliantApiToken", "noncompliantPasswordHash"],
    "cloudformation.yml": ["NoncompliantDBPassword"], "cloudformation.json": ["NoncompliantDBPassword"],
}

HARDCODED = re.compile(r"(?i)[A-Za-z0-9+/_.~!?$%#&-]*hardcoded[A-Za-z0-9+/_.~!?$%#-]*=*")
B64 = re.compile(r"[A-Za-z0-9+/]{12,}={0,2}")


def compliant_section(text, pos):
    """Whether the fixture marks the place at pos compliant: the nearest line above it that
    says compliant or noncompliant decides."""
    for line in reversed(text[:pos].split("\n")):
        low = line.lower()
        if "noncompliant" in low or "non-compliant" in low:
            return False
        if "compliant" in low:
            return True
    return False


def whispers_values(text):
    """The values holding "hardcoded" (the label whispers' tests use), not key names."""
    found = []
    for m in B64.finditer(text):
        try:
            plain = base64.b64decode(m.group(0) + "=" * (-len(m.group(0)) % 4))
        except ValueError:
            continue
        if b"hardcoded" in plain.lower() and not compliant_section(text, m.start()):
            found.append(m.group(0))
    for m in HARDCODED.finditer(text):
        if compliant_section(text, m.start()):
            continue
        v = m.group(0)
        if text[max(0, m.start() - 2):m.start()].endswith(("<", "</")):
            continue  # an XML element name
        rest = text[m.end():m.end() + 4]
        if re.match(r"""\s*["']?\s*[:=]""", rest) and not re.match(r"""\s*["']?\s*[:=]\s*//""", rest):
            continue  # a key name: hardcoded_password: …
        if "/" in v and ("." in v.split("/")[0] or v.startswith("/")):
            v = [p for p in v.split("/") if "hardcoded" in p.lower()][-1]  # a URL's path segment
        v = v.strip(".,;&=?#")
        if "&" in v:
            v = [p for p in v.split("&") if "hardcoded" in p.lower()][-1].split("=")[-1]
        if len(v) >= 6:
            found.append(v)
    return found


class _TagLoader(yaml.SafeLoader):
    """Reads CloudFormation's !Ref and other local tags as plain values."""


_TagLoader.add_multi_constructor("!", lambda loader, suffix, node: loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else None)


def whispers_key_values(name, text, keys):
    vals = []
    if name.endswith(".xml"):
        for k in keys:
            for m in re.finditer(r"<%s(?:\s[^>]*)?>(.*?)</%s>" % (re.escape(k), re.escape(k)), text, re.S):
                vals.append(m.group(1).strip())
        return vals
    doc = yaml.load(text, Loader=_TagLoader) if name.endswith((".yml", ".yaml")) else json.loads(text)

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                if k in keys and isinstance(x, str):
                    vals.append(x)
                elif k in keys and isinstance(x, dict) and "Default" in x:
                    vals.append(str(x["Default"]))
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(doc)
    # A value that YAML or JSON unescaped must be found as the file spells it.
    out = []
    for v in vals:
        if v in text:
            out.append(v)
        else:
            out.extend(line.strip() for line in v.split("\n") if len(line.strip()) >= 16 and line.strip() in text)
    return out


def whispers(repo, out, record, is_placeholder):
    src = "whispers"
    tests = repo.show("tests/unit/test_secrets.py")
    counts = dict((m.group(1), int(m.group(2))) for m in re.finditer(r'\("([^"]+)",\s*(\d+)\)', tests))
    record(src, repo, "tests/unit/test_secrets.py", "which fixtures hold secrets and how many (labels)")
    for path in repo.ls("tests/fixtures/"):
        name = path.removeprefix("tests/fixtures/")
        if name.endswith((".gitkeep", "invalid.json")) or name.startswith("folder/"):
            continue
        try:
            text = repo.raw(path).decode("utf-8")
        except (UnicodeDecodeError, subprocess.CalledProcessError):
            continue
        if name in WHISPERS_BY_KEY:
            secrets = whispers_key_values(name, text, WHISPERS_BY_KEY[name])
        elif name in counts:
            secrets = whispers_values(text) if counts[name] > 0 else []
            if name == "creditcards.yml":
                continue  # card numbers: not a class of this sanitizer
        else:
            continue
        secrets = [s for s in secrets if not is_placeholder(s)]
        ident = f"{src}:{path}"
        if secrets:
            cls = "known-format" if name in ("gitkeys.yml",) or name.startswith("privatekeys") else "keyword-context"
            example(out, src, ident, cls, name, text, secrets)
        elif counts.get(name) == 0:
            example(out, src, ident, "format-negative", name, text, [])
        else:
            continue
        record(src, repo, path, "fixture file")


def line_value(line):
    """The secret on a line of ripsecrets' one-per-line tests."""
    line = line.strip()
    p = url_password(line)
    if p:
        return p
    m = re.match(r"<(\w+)>(.*)</\1>$", line)
    if m:
        return m.group(2)
    m = re.search(r"""[:=]\s*(["'`])(.+?)\1\s*[,;]?\s*$""", line)
    if m:
        return m.group(2)
    m = re.search(r"""(?:^|\s)[\w.\[\]'"-]+\s*[:=]\s*([^\s"']+)\s*$""", line)
    if m:
        return m.group(1)
    return line


def ripsecrets(repo, out, record, is_placeholder):
    src = "ripsecrets"
    by_secret = {}
    for path in repo.ls("test/one_per_line/"):
        text = repo.show(path)
        for line in text.split("\n"):
            if not line.strip():
                continue
            v = line_value(line)
            if is_placeholder(v) or len(v) < 6:
                continue
            # Lines sharing a secret are one event, so that no secret is in both halves.
            e = by_secret.setdefault(v, {"path": path, "lines": []})
            e["lines"].append(line)
        record(src, repo, path, "one secret per line (labels: the test expects one finding per line)")
    for v, e in by_secret.items():
        cls = "keyword-context" if e["path"].endswith(("/random", "/url", "/maven", "/aws")) else "known-format"
        example(out, src, f"{src}:{e['path']}:{e['lines'][0]}", cls, e["path"].rsplit("/", 1)[-1], "\n".join(e["lines"]), [v])
    for path in repo.ls("test/one_per_file/"):
        text = repo.show(path)
        if "PRIVATE KEY" in text:
            secrets = [m.group(0) for m in re.finditer(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----", text)]
            secrets = [ln for s in secrets for ln in s.split("\n")[1:-1] if len(ln) >= 16]
        else:
            secrets = re.findall(r"AKIA[0-9A-Z]{16}", text)
        if secrets:
            example(out, src, f"{src}:{path}", "known-format", path.rsplit("/", 1)[-1], text, secrets)
            record(src, repo, path, "one secret per file")
    text = repo.show("test/none")
    for i, line in enumerate(text.split("\n"), 1):
        if len(line.strip()) >= 8:
            example(out, src, f"{src}:test/none:{i}", "format-negative", "none", line, [])
    record(src, repo, "test/none", "lines the test expects no finding on")


class _Eval(ast.NodeVisitor):
    """Evaluates the string constants of a module (literals, f-strings of names, +)."""

    def __init__(self):
        self.env = {}

    def value(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.value(node.left), self.value(node.right)
            return a + b if isinstance(a, str) and isinstance(b, str) else None
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(v.value)
                elif isinstance(v, ast.FormattedValue):
                    x = self.value(v.value)
                    if not isinstance(x, str):
                        return None
                    parts.append(x)
            return "".join(parts)
        return None


def ggshield(repo, out, record, is_placeholder):
    """ggshield's unit-test patches and the matches their scan results expect."""
    src = "ggshield"
    path = "tests/unit/conftest.py"
    tree = ast.parse(repo.show(path))
    ev = _Eval()
    results = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        name = node.targets[0].id
        v = ev.value(node.value)
        if isinstance(v, str):
            ev.env[name] = v
            continue
        if name.endswith("_SCAN_RESULT") and isinstance(node.value, ast.Call) and node.value.args:
            matches = []
            for d in ast.walk(node.value.args[0]):
                if isinstance(d, ast.Dict):
                    keys = [k.value if isinstance(k, ast.Constant) else None for k in d.keys]
                    if "match" in keys:
                        m = ev.value(d.values[keys.index("match")])
                        t = d.values[keys.index("type")].value if "type" in keys and isinstance(d.values[keys.index("type")], ast.Constant) else ""
                        if isinstance(m, str):
                            matches.append((m, t))
            results[name.removesuffix("_SCAN_RESULT")] = matches
    for base, matches in sorted(results.items()):
        text = ev.env.get(base) or ev.env.get(base + "_CONTENT")
        if not text:
            continue
        secrets = [m for m, t in matches if t not in ("client_id", "username", "host", "port", "database", "id", "connection_uri")
                   and len(m) >= 6 and not is_placeholder(m)]
        lines = []
        for s in secrets:
            if "\n" in s:
                lines.extend(ln for ln in s.split("\n") if len(ln.lstrip("+")) >= 16 and "-----" not in ln)
            elif s in text:
                lines.append(s)
        if lines:
            example(out, src, f"{src}:{path}:{base}", "keyword-context" if not any("PRIVATE KEY" in s for s in secrets) else "known-format",
                    base, text, lines)
    record(src, repo, path, "test patches and their expected matches (labels)")


# ---- facts-only sources: examples generated from token formats ----

def gen_pattern(pat, rnd, max_extra=8):
    """A string matching a simple regular expression, with characters from rnd."""
    import re._parser as sre
    from re._constants import (LITERAL, IN, MAX_REPEAT, MIN_REPEAT, SUBPATTERN, BRANCH, RANGE, CATEGORY,
                               NEGATE, AT, ANY, NOT_LITERAL, CATEGORY_DIGIT, CATEGORY_WORD, CATEGORY_SPACE)

    def chars(items):
        out = []
        for op, av in items:
            if op == LITERAL:
                out.append(chr(av))
            elif op == RANGE:
                out.extend(chr(c) for c in range(av[0], av[1] + 1))
            elif op == CATEGORY:
                if av == CATEGORY_DIGIT:
                    out.extend("0123456789")
                elif av == CATEGORY_WORD:
                    out.extend("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
                else:
                    raise ValueError("category")
            elif op == NEGATE:
                raise ValueError("negated class")
        return out

    def gen(tokens):
        out = []
        for op, av in tokens:
            if op == LITERAL:
                out.append(chr(av))
            elif op == IN:
                out.append(rnd.choice(chars(av)))
            elif op == CATEGORY:
                out.append(rnd.choice(chars([(op, av)])))
            elif op in (MAX_REPEAT, MIN_REPEAT):
                lo, hi, sub = av
                hi = min(hi, lo + max_extra) if hi != sre.MAXREPEAT else lo + max_extra
                out.extend(gen(sub) for _ in range(rnd.randint(lo, max(lo, hi))))
            elif op == SUBPATTERN:
                out.append(gen(av[-1]))
            elif op == BRANCH:
                out.append(gen(rnd.choice(av[1])))
            elif op == AT:
                pass
            else:
                raise ValueError(f"unsupported {op}")
        return "".join(out)

    return gen(sre.parse(pat))


def _rand_ctx(rnd, templates, **kw):
    return rnd.choice(templates).format(**kw)


# Contexts the generated tokens are put in. Known formats stand without a secret word
# nearby (a grep hit, a log line, a config value under a neutral name); keyword-context
# tokens sit under a name or header that says what they are, as TruffleHog's detectors
# require (the vendor's name within 40 characters, then the token).
FORMAT_CONTEXTS = [
    "{v}",
    "src/config.ts:12:  const client = new Client(\"{v}\");",
    "[INFO] connecting with {v}",
    "value: {v}",
    "$ echo {v}\n{v}",
    "{{\"value\": \"{v}\", \"enabled\": true}}",
]
KEYWORD_CONTEXTS = [
    "export {KW}_API_KEY={v}",
    "{kw}:\n  api_key: \"{v}\"\n  timeout: 30",
    "\"{kw}_token\": \"{v}\",",
    "[DEBUG] {kw} client: using API_KEY={v}",
    "curl -H \"X-{Kw}-Token: {v}\" https://api.{kw}.com/v1/me",
    "{KW}_SECRET = '{v}'",
    "<{kw}>\n  <apiKey>{v}</apiKey>\n</{kw}>",
    "{kw}.token={v}",
]


def trufflehog(repo, out, record, is_placeholder):
    """TruffleHog's detectors, facts only (AGPL-3.0: nothing is copied): each detector's
    keywords and the expression of its secret give one generated token, put in a context:
    a known format alone, a keyword-context token under a name that says secret."""
    src = "trufflehog"
    skip_var = re.compile(r"(?i)id|user|email|url|host|domain|endpoint|region|account|org|tenant|server|name|"
                          r"project|workspace|team|instance|subdomain|zone|app|base|location|version|env")
    detectors = {}
    for path in repo.ls("pkg/detectors/"):
        if not path.endswith(".go") or path.endswith("_test.go") or path.count("/") != 3:
            continue
        detectors.setdefault(path.split("/")[2], []).append(path)
    for det, paths in sorted(detectors.items()):
        for path in paths:
            code = repo.show(path)
            kws = re.search(r"func \(\w+ \*?Scanner\) Keywords\(\) \[\]string \{\s*return \[\]string\{([^}]*)\}", code)
            keywords = re.findall(r'"([^"]+)"', kws.group(1)) if kws else []
            for m in re.finditer(r'(?:(\w+)\s*=|"([^"]+)"\s*:)\s*regexp\.MustCompile\(', code):
                var = m.group(1) or m.group(2)
                if skip_var.search(var) and not re.search(r"(?i)key|secret|token|pass", var):
                    continue
                # The call's argument: string literals and PrefixRegex keywords, up to ')'.
                i, depth, lits, prefix_kws = m.end(), 1, [], []
                while i < len(code) and depth > 0:
                    c = code[i]
                    if c == "`":
                        j = code.index("`", i + 1)
                        lits.append(code[i + 1:j])
                        i = j + 1
                        continue
                    if c == '"':
                        j = i + 1
                        while code[j] != '"':
                            j += 2 if code[j] == "\\" else 1
                        lits.append(ast.literal_eval(code[i:j + 1]))
                        i = j + 1
                        continue
                    if code.startswith("detectors.PrefixRegex(", i):
                        k = code.index(")", i)
                        prefix_kws = re.findall(r'"([^"]+)"', code[i:k])
                        i = k + 1
                        continue
                    depth += c == "("
                    depth -= c == ")"
                    i += 1
                pat = "".join(lits)
                if not pat or len(pat) > 400:
                    continue
                ident = f"{src}:{path}:{var}"
                rnd = random.Random(hashlib.sha256(ident.encode()).digest())
                try:
                    tok = gen_pattern(pat, rnd)
                    mm = re.search(pat, tok)
                except Exception:
                    continue
                if not mm:
                    continue
                secret = next((g for g in mm.groups() if g), None) if mm.groups() else mm.group(0)
                if not secret or len(secret) < 8 or is_placeholder(secret) or secret.isdigit():
                    continue
                kw = re.sub(r"[^a-z0-9]", "", (prefix_kws or keywords or [det])[0].lower()) or det
                known = not prefix_kws and literal_run(pat) >= 3
                if known:
                    text = _rand_ctx(rnd, FORMAT_CONTEXTS, v=secret)
                    cls = "known-format"
                else:
                    text = _rand_ctx(rnd, KEYWORD_CONTEXTS, v=secret, kw=kw, KW=kw.upper(), Kw=kw.capitalize())
                    cls = "keyword-context"
                example(out, src, ident, cls, f"{det}/{var}", text, [secret])
                record(src, repo, path, "facts only: keywords and token expression; example generated")


def ms_security_utilities(repo, out, record, is_placeholder):
    """microsoft/security-utilities' high-confidence identifiable key formats (MIT): one key
    generated from each pattern's refine group, in a neutral context."""
    src = "ms-security-utilities"
    for path in ["GeneratedRegexPatterns/HighConfidenceSecurityModels.json", "GeneratedRegexPatterns/PreciselyClassifiedSecurityKeys.json"]:
        pats = json.loads(repo.show(path))
        took = False
        for p in pats:
            pat = p.get("Pattern", "")
            m = re.search(r"\(\?P<refine>", pat)
            if not m:
                continue
            # The refine group alone: up to its closing parenthesis.
            depth, i = 1, m.end()
            while i < len(pat) and depth:
                if pat[i] == "\\":
                    i += 2
                    continue
                depth += pat[i] == "("
                depth -= pat[i] == ")"
                i += 1
            body = pat[m.end():i - 1]
            ident = f"{src}:{p['Id']}:{p['Name']}"
            rnd = random.Random(hashlib.sha256(ident.encode()).digest())
            try:
                secret = gen_pattern(body, rnd, max_extra=0)
            except Exception:
                continue
            if len(secret) < 16 or is_placeholder(secret):
                continue
            example(out, src, ident, "known-format", p["Name"], _rand_ctx(rnd, FORMAT_CONTEXTS, v=secret), [secret])
            took = True
        if took:
            record(src, repo, path, "key formats (facts); examples generated")


def noseyparker(repo, out, record, is_placeholder):
    np_style("noseyparker", repo, "crates/noseyparker/data/default/builtin/rules/", out, record, is_placeholder)


def kingfisher(repo, out, record, is_placeholder):
    np_style("kingfisher", repo, "data/rules/", out, record, is_placeholder)
