#!/usr/bin/env python3
"""2ms (a fourteenth corpus build): the samples Checkmarx' 2ms tests each of its secret rules
with, labelled by what the rule's own expression reports as the secret.

    python3 testdata/eval/sources14.py --mirror <dir>

reads a bare clone under `<dir>/Checkmarx+2ms/repo` at the commit named below, replaces this
build's examples in secrets.jsonl and its files in manifest.json, and writes the licence to
licenses/2ms.txt.

- 2ms: every rule of `engine/rules/ruledefine/` has a test beside it (`<rule>_test.go`) with
  `truePositives`, strings the rule must report, and `falsePositives`, strings it must not.
  A true positive is an example; its secret is what the rule's expression captures in it, as
  2ms (through gitleaks' detector) reports it: the rule's `SecretGroup`, else the first capture
  group that took part in the match, else the whole match. The expressions are built by small
  Go helpers (`generateSemiGenericRegex`, `generateUniqueTokenRegex`, `Hex("32")`, …); a
  reader of those Go expressions here rebuilds each one and the `regex` module runs it (Go's
  scoped flags read as version 1 reads them). A rule whose secret part demands three literal
  characters or more (a class of five characters or fewer counting as one: `sk_live_`,
  `glpat-`, `AGE-SECRET-KEY-1`) is `known-format`; one found by the name around a value
  without one is `keyword-context`. A false positive is a format negative unless it holds a
  secret another example is labelled with, or another rule of the set reports a value in it
  that is no placeholder. Left out: the rules of identifiers (client, access and user ids,
  publishable and public keys, AWS access key ids), rules whose expression the reader cannot
  rebuild, and samples built by code rather than written as literals (values drawn at random
  when the test runs, base64 variants built in the test).

As every later build, a label that is a placeholder, one of the sanitizer's placeholder words,
shorter than four characters or a short value that also stands unlabelled in its text is
dropped (sources9.keep); an example whose text or secret is already in the corpus or in
gitleaks' rule examples is left out, and examples sharing a secret are one event. Every example
of a rule is in that rule's half: the record's `group`, `2ms:<rule name>`.
"""
import argparse
import ast
import json
import os
import re
import sys

import regex

import build
import sources12
import sources3
import sources9

TWOMS = ("2ms", "Checkmarx/2ms", "Apache-2.0", "e2fafb4a9738d0f2984b0570f056e70a72ad55cb")
RULES = "engine/rules/ruledefine/"

# The files each example's text was taken from, (source, text) -> paths: the manifest names
# those of the examples kept.
TAKEN = {}


def example(out, src, ident, group, cls, label, text, secrets, path):
    TAKEN.setdefault((src, text), set()).add(path)
    out.append({"id": ident, "source": src, "split": build.split_of(ident), "group": f"{src}:{group}", "class": cls,
                "label": label, "text": text, "secrets": sorted(set(secrets))})


# ---- a reader of the Go expressions the rules are built with ----

TOKEN = re.compile(r"""\s*(?://[^\n]*\n\s*)*(`[^`]*`|"(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w.]*|\d+(?:\.\d+)?|\[\]|[(){},+:])""")


def tokens(src, pos=0):
    """The tokens of Go source from pos on, (token, end) pairs."""
    while True:
        m = TOKEN.match(src, pos)
        if not m:
            return
        pos = m.end()
        yield m.group(1), pos


def go_literal(tok):
    if tok.startswith("`"):
        return tok[1:-1].replace("\r", "")
    return ast.literal_eval(tok)


def sprintf(fmt, *args):
    out, args = [], list(args)
    for piece in re.split(r"(%%|%s|%d|%v)", fmt):
        if piece == "%%":
            out.append("%")
        elif piece in ("%s", "%d", "%v"):
            out.append(str(args.pop(0)))
        else:
            out.append(piece)
    return "".join(out)


# The helpers of ruledefine/utils.go, rebuilt from what they write (facts of the rules).
IDENT_PREFIX, IDENT_SUFFIX = r"[\w.-]{0,50}?(?:", r")(?:[ \t\w.-]{0,20})[\s'" + '"' + r"]{0,3}"
IDENT_SUFFIX_XML = r")(?:[0-9a-z\-_\t .]{0,20})(?:<\/key>\s{0,10}<string)?(?:[\s|']|[\s|" + '"' + r"]){0,3}"
OPERATOR = r"(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)"
SECRET_PREFIX, SECRET_SUFFIX = r"""[\x60'"\s=]{0,20}(""", r""")(?:[\x60'"\s;]|\\[nr]|$)"""
SECRET_SUFFIX_XML = r""")(?:['|\"|\n|\r|\s|\x60|;]|\\n|\\r|$|\s{0,10}<\/string>)"""


def semi_generic(ids, secret, ci, xml=False):
    suffix = IDENT_SUFFIX_XML if xml else IDENT_SUFFIX
    head = "(?i)" + IDENT_PREFIX + "|".join(ids) + suffix if ci else \
        r"[\w.-]{0,50}?(?i:" + IDENT_PREFIX + "|".join(ids) + suffix + ")"
    return head + OPERATOR + SECRET_PREFIX + secret + (SECRET_SUFFIX_XML if xml else SECRET_SUFFIX)


HELPERS = {
    "regexp.MustCompile": lambda s: s,
    "fmt.Sprintf": sprintf,
    "generateSemiGenericRegex": semi_generic,
    "generateSemiGenericRegexIncludingXml": lambda ids, s, ci: semi_generic(ids, s, ci, True),
    "generateUniqueTokenRegex": lambda s, ci: ("(?i)" if ci else "") + r"\b(" + s + SECRET_SUFFIX,
    "utils.MergeRegexps": lambda *rs: "|".join(rs),
    "append": lambda xs, *more: list(xs) + list(more),
    "Hex": lambda n: f"[a-f0-9]{{{n}}}",
    "AlphaNumeric": lambda n: f"[a-z0-9]{{{n}}}",
    "AlphaNumericExtendedShort": lambda n: f"[a-z0-9_-]{{{n}}}",
    "AlphaNumericExtended": lambda n: f"[a-z0-9=_\\-]{{{n}}}",
    "AlphaNumericExtendedLong": lambda n: f"[a-z0-9\\/=_\\+\\-]{{{n}}}",
    "Numeric": lambda n: f"[0-9]{{{n}}}",
    "Hex8_4_4_4_12": lambda: r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
}


class Unreadable(Exception):
    pass


class Reader:
    """Evaluates the Go expressions of a package's rules: string literals and constants, `+`,
    `[]string{…}`, the helpers above and `.String()`."""

    def __init__(self, names):
        self.names = names
        self.values = {}

    def expr(self, toks):
        val = self.term(toks)
        while toks and toks[0] == "+":
            toks.pop(0)
            val = val + self.term(toks)
        return val

    def term(self, toks):
        if not toks:
            raise Unreadable("end")
        tok = toks.pop(0)
        if tok[0] in "`\"":
            return go_literal(tok)
        if tok in ("true", "false"):
            return tok == "true"
        if tok[0].isdigit():
            return tok
        if tok == "[]":
            if toks[:2] != ["string", "{"]:
                raise Unreadable(tok)
            del toks[:2]
            items = []
            while toks[0] != "}":
                items.append(self.expr(toks))
                if toks[0] == ",":
                    toks.pop(0)
            toks.pop(0)
            return items
        name = tok
        if name.endswith(".String") and toks[:2] == ["(", ")"]:
            name = name[:-len(".String")]
            del toks[:2]
        if toks[:1] == ["("]:
            toks.pop(0)
            args = []
            while toks[0] != ")":
                args.append(self.expr(toks))
                if toks[0] == ",":
                    toks.pop(0)
            toks.pop(0)
            if name not in HELPERS:
                raise Unreadable(name)
            try:
                return HELPERS[name](*args)
            except Exception as e:
                raise Unreadable(f"{name}: {e}")
        if name in self.names:
            return self.value(name)
        raise Unreadable(name)

    def value(self, name):
        if name not in self.values:
            self.values[name] = self.expr(list(self.names[name]))
        return self.values[name]


DOT_STRING = re.compile(r"\)\s*\.String\(\)")


def statement_tokens(src, pos):
    """The tokens of one expression from pos to the end of its line, brackets balanced."""
    out, depth = [], 0
    for tok, end in tokens(src, pos):
        out.append(tok)
        if tok in "({":
            depth += 1
        elif tok in ")}":
            depth -= 1
        if depth == 0 and src[end:end + 200].split("\n", 1)[0].split("//")[0].strip() in ("", ","):
            if not (src[end:].lstrip(" \t").startswith("+") or out[-1] == "+"):
                return out
    return out


def package_names(files):
    """Every `var x = …` and `const x = …` of the package, in blocks too, name -> tokens."""
    names = {}
    for src in files:
        src = DOT_STRING.sub(")", src)
        block = False
        offset = 0
        for line in src.splitlines(keepends=True):
            if re.match(r"(?:const|var) \($", line.strip()):
                block = True
            elif block and line.startswith(")"):
                block = False
            else:
                indent = len(line) - len(line.lstrip()) if block else 0
                m = re.compile(r"(?:(?:var|const) )?(\w+)\s*(?:string\s*)?=\s*").match(line, indent)
                if m and (block or re.match(r"(?:var|const) ", line)):
                    names.setdefault(m.group(1), statement_tokens(src, offset + m.end()))
            offset += len(line)
    return names


def rule_funcs(src):
    """(function name, rule name, regex tokens, secret group, keyword tokens) of each
    `func X() *Rule`."""
    src = DOT_STRING.sub(")", src)
    out = []
    for m in re.finditer(r"\nfunc (\w+)\(\) \*Rule \{(.*?)\n\}", src, re.S):
        body = m.group(2)
        name = re.search(r'RuleName:\s*"([^"]+)"', body)
        rx = re.search(r"\bRegex:\s*", body)
        group = re.search(r"SecretGroup:\s*(\d+)", body)
        kw = re.search(r"\bKeywords:\s*", body)
        if name and rx:
            out.append((m.group(1), name.group(1), statement_tokens(body, rx.end()), int(group.group(1)) if group else 0,
                        statement_tokens(body, kw.end()) if kw else None))
    return out


def go_regex(pattern):
    return regex.compile("(?V1)" + pattern.replace(r"\z", r"\Z"))


def secret_of(rule, text):
    """The secrets the rule reports in text: SecretGroup, else the first capture group that
    took part, else the whole match. As gitleaks does, a rule with keywords runs only on a
    text that holds one of them (case aside); Python's engine backtracks where Go's does not,
    so a search that runs past a minute is an error, not an answer."""
    _, _, rx, group, keywords = rule
    if keywords and not any(k.lower() in text.lower() for k in keywords):
        return []
    named = set(rx.groupindex.values())
    if rule[0] in WHOLE_MATCH:
        group, named = 0, set(range(1, rx.groups + 1))
    found = []
    for m in rx.finditer(text, timeout=60):
        if group:
            found.append(m.group(group))
        else:
            parts = [g for i, g in enumerate(m.groups(), 1) if g and i not in named]
            found.append(parts[0] if parts else m.group(0))
    return [v for f in found if f for v in value_of(rule[0], f)]


# Rules whose match holds a user name before the secret (`user:password`).
USER_PASSWORD = {"Authenticated-Url", "Curl-Auth-User"}
# Rules whose groups repeat a piece of the format (a UUID's `([a-z0-9]{4}-){3}` in a Teams
# webhook's URL): the secret is the whole match, the URL, as named groups (a JWT header's
# field in its base64) are never the secret.
WHOLE_MATCH = {"Microsoft-Teams-Webhook"}


def value_of(name, found):
    """The secret of what a rule reports: a private key's body lines of sixteen characters or
    more (written over lines or with escaped newlines), the password of a `user:password`."""
    if "PRIVATE KEY" in found:
        body = re.sub(r"-----[A-Z0-9 _-]*-----", " ", found)
        return [p for p in re.split(r"\\n|\s+", body) if len(p) >= 16]
    if name in USER_PASSWORD:
        # the password, its quotes and braces off; with no password, the one value given
        user, _, password = (q.strip("'\"") for q in found.rpartition(":")) if ":" in found else ("", "", "")
        value = password or user
        return [value.strip("{}") if value.startswith("{") else value] if value else []
    return [found]


def literal_units(pattern):
    """The longest run of literal characters a pattern demands, a class of five characters or
    fewer, or a group of literal alternatives, counting as one each (a group by its shortest
    alternative)."""
    best = run = 0
    i = 0
    while i < len(pattern):
        c = pattern[i]
        unit = 0
        if c == "\\":
            nxt = pattern[i + 1:i + 2]
            if nxt in ("b", "B", "A", "z", "Z"):
                i += 2
                continue
            unit = 0 if nxt.isalnum() and nxt not in ("x",) else 1
            i += 4 if nxt == "x" else 2
        elif c == "[":
            j = i + 1
            while j < len(pattern) and (pattern[j] != "]" or j == i + 1):
                j += 2 if pattern[j] == "\\" else 1
            body = pattern[i + 1:j]
            unit = 1 if "-" not in body.strip("-") and not body.startswith("^") and not re.search(r"\\[wdsWDS]", body) \
                and len(body.replace("\\", "")) <= 5 else 0
            i = j + 1
        elif c == "(":
            depth, j = 0, i
            while j < len(pattern):
                if pattern[j] == "\\":
                    j += 2
                    continue
                depth += pattern[j] == "("
                depth -= pattern[j] == ")"
                if depth == 0:
                    break
                j += 1
            inner = re.sub(r"^\?(?:[:imsU-]*:|[imsU-]+\))", "", pattern[i + 1:j])
            if re.fullmatch(r"\?[imsU-]+", pattern[i + 1:j]):
                i = j + 1
                continue
            alts = inner.split("|")
            if all(re.fullmatch(r"[\w-]+", a) for a in alts):
                unit = min(len(a) for a in alts)
                i = j + 1
                run += unit
                best = max(best, run)
                continue
            inner_best = literal_units(inner) if len(alts) == 1 else 0
            best = max(best, inner_best)
            run = 0
            i = j + 1
            if i < len(pattern) and pattern[i] in "?*+{":
                i = skip_quantifier(pattern, i)
            continue
        elif c in "^$":
            i += 1
            continue
        elif c in ".|":
            unit = 0
            i += 1
        else:
            unit = 1
            i += 1
        if i < len(pattern) and pattern[i] in "?*+{":
            q = pattern[i:skip_quantifier(pattern, i)]
            i = skip_quantifier(pattern, i)
            fixed = re.fullmatch(r"\{(\d+)\}", q)
            if unit and fixed:
                unit = int(fixed.group(1))
            elif unit and re.fullmatch(r"\{(\d+),\d*\}", q) and int(q[1:].split(",")[0]) > 0:
                run += int(q[1:].split(",")[0])
                best = max(best, run)
                run = 0
                continue
            else:
                unit = 0
        if unit:
            run += unit
            best = max(best, run)
        else:
            run = 0
    return best


def skip_quantifier(pattern, i):
    if pattern[i] == "{":
        i = pattern.index("}", i) + 1
    else:
        i += 1
    if i < len(pattern) and pattern[i] == "?":
        i += 1
    return i


# ---- the 2ms source ----

# Rules that report identifiers or public values, not secrets: client, access and user ids,
# the public halves of key pairs (Bittrex' and KuCoin's API keys, Twitter's consumer key,
# Twilio's API key SID), publishable and public keys, AWS access key ids (their secret keys
# have rules of their own).
NOT_SECRET_RULES = {"Adobe-Client-Id", "Alibaba-Access-Key-Id", "Asana-Client-Id", "Aws-Access-Token", "Bitbucket-Client-Id",
                    "Bittrex-Access-Key", "Discord-Client-Id", "Flutterwave-Public-Key", "Kucoin-Access-Token",
                    "Linkedin-Client-Id", "Lob-Pub-Api-Key", "Mailgun-Pub-Key", "Messagebird-Client-Id",
                    "New-Relic-User-Api-Id", "Plaid-Client-Id", "Sendbird-Access-Id", "Sumologic-Access-Id",
                    "Twilio-Api-Key", "Twitter-Api-Key"}
NOT_SECRET = re.compile("^(?:" + "|".join(map(re.escape, sorted(NOT_SECRET_RULES))) + ")$")


def test_cases(src):
    """(rule function, true positives, false positives) of a rule's test file, each list the
    literals of its `truePositives`/`falsePositives` slice; an element written as code, not
    literals, is left out."""
    out = []
    for fn in re.split(r"\nfunc ", src)[1:]:
        rules = re.findall(r"TwomsToGitleaksRule\((\w+)\(\)\)", fn)
        if len(set(rules)) != 1:
            continue
        lists = {"truePositives": [], "falsePositives": []}
        for m in re.finditer(r"(truePositives|falsePositives):\s*\[\]string\{", fn):
            lists[m.group(1)] += slice_literals(fn, m.end())
        out.append((rules[0], lists["truePositives"], lists["falsePositives"]))
    return out


def slice_literals(src, pos):
    """The elements of a `[]string{` … `}` starting at pos that are string literals joined by
    `+`."""
    items, current, ok, depth = [], [], True, 0
    for tok, _ in tokens(src, pos):
        if depth == 0 and tok in (",", "}"):
            if current and ok:
                items.append("".join(go_literal(t) for t in current if t != "+"))
            current, ok = [], True
            if tok == "}":
                return items
            continue
        if tok in "({":
            depth += 1
        elif tok in ")}":
            depth -= 1
        if tok[0] in "`\"" or tok == "+":
            current.append(tok)
        else:
            ok = False
            current.append(tok)
    return items


def twoms(repo, out):
    src, *_ = TWOMS
    paths = [p for p in repo.ls(RULES) if p.endswith(".go")]
    sources = {p: repo.show(p) for p in paths}
    reader = Reader(package_names([s for p, s in sources.items() if not p.endswith("_test.go")]))
    rules, unreadable = {}, []
    for p, s in sources.items():
        if p.endswith("_test.go"):
            continue
        for fn, name, toks, group, kw in rule_funcs(s):
            try:
                pattern = reader.expr(list(toks))
                rx = go_regex(pattern)
                keywords = reader.expr(list(kw)) if kw else []
            except (Unreadable, regex.error, IndexError, ValueError, SyntaxError) as e:
                unreadable.append((name, str(e)))
                continue
            rules[fn] = (name, pattern, rx, group, keywords)
    cases = []
    for p, s in sorted(sources.items()):
        if p.endswith("_test.go"):
            for fn, tps, fps in test_cases(s):
                if fn in rules:
                    cases.append((p, fn, tps, fps))
    labelled = set()
    for p, fn, tps, fps in cases:
        name, pattern = rules[fn][:2]
        if NOT_SECRET.search(name):
            continue
        for i, text in enumerate(tps):
            found = secret_of(rules[fn], text)
            secrets = sources9.keep(text, found)
            if not secrets:
                continue
            labelled.update(secrets)
            armoured = name == "Private-Key"  # the body of a key between its armour lines
            cls = "known-format" if armoured or all(known_format(pattern, s) for s in secrets) else "keyword-context"
            example(out, src, f"{src}:{name}:tp:{i}", name, cls, name, text, secrets, p)
    for p, fn, tps, fps in cases:
        name = rules[fn][0]
        if NOT_SECRET.search(name):
            continue
        for i, text in enumerate(fps):
            if any(s in text for s in labelled):
                continue
            others = [s for f2, rule in rules.items() if f2 != fn and not NOT_SECRET.search(rule[0])
                      for s in sources9.keep(text, secret_of(rule, text))]
            if others:
                continue
            example(out, src, f"{src}:{name}:fp:{i}", name, "format-negative", name, text, [], p)
    for name, why in unreadable:
        print(f"2ms: {name}: expression not read ({why})", file=sys.stderr)


SECRET_PARTS = {}


def known_format(pattern, secret):
    """The secret's part of the pattern (the capture group it came from, else the whole
    pattern) demands three literal characters or more."""
    for part in secret_parts(pattern) + [pattern]:
        try:
            if regex.fullmatch("(?V1)(?i)" + part if pattern.startswith("(?i)") else "(?V1)" + part, secret):
                return literal_units(part) >= 3
        except regex.error:
            continue
    return False


def secret_parts(pattern):
    """The capture groups of a pattern, as pattern text."""
    if pattern in SECRET_PARTS:
        return SECRET_PARTS[pattern]
    parts, stack, i = [], [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            j = i + 1
            while j < len(pattern) and (pattern[j] != "]" or j == i + 1):
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            continue
        if c == "(":
            stack.append((i, pattern[i + 1:i + 2] != "?"))
        elif c == ")" and stack:
            start, capturing = stack.pop()
            if capturing:
                parts.append(pattern[start + 1:i])
        i += 1
    SECRET_PARTS[pattern] = parts
    return parts


TAKEN_AS = {"2ms": "rule test, true and false positives (labels: the rule's own expression)"}


def facts(repo):
    """The rule files read for their expressions and names, and the helpers that build the
    expressions (facts only)."""
    return [(p, "facts only: the expression helpers" if p.endswith("/utils.go") else "facts only: the rule's expression and name")
            for p in repo.ls(RULES) if p.endswith(".go") and not p.endswith("_test.go")]


def add(mirror):
    """This build's examples and files (sources12.add_builds): with the test files kept, the
    rule files they test and the helpers the rules are written with, as facts."""
    def facts_of(src, repo, taken):
        rule_files = {p[:-len("_test.go")] + ".go" for p in taken} | {RULES + "utils.go"}
        return [f for f in facts(repo) if f[0] in rule_files]
    sources12.add_builds(mirror, [(TWOMS, twoms, ["LICENSE"])], TAKEN, TAKEN_AS, facts_of)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
