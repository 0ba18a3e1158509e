#!/usr/bin/env python3
"""semantic-release's hide-sensitive, pip's URL redaction, conda's channel token filter and the
telemetry anonymizer of GitHub Copilot for Eclipse (an eighteenth corpus build): four more tools
that hide credentials in what they print, log or send, labelled by the text each test expects
them to make of an input.

    python3 testdata/eval/sources18.py --mirror <dir>

reads bare clones under `<dir>/semantic-release+semantic-release/repo`, `<dir>/pypa+pip/repo`,
`<dir>/conda+conda/repo` and `<dir>/microsoft+copilot-for-eclipse/repo` at the commits named
below, replaces this build's examples in secrets.jsonl and its files in manifest.json, and
writes each licence to licenses/<source>.txt.

- semantic-release: the release tool masks, in its logs, errors and release notes, the values
  of environment variables whose names say secret, and the forms a URL gives them
  (`lib/hide-sensitive.js`); each test of `test/hide-sensitive.test.js` builds an environment,
  an input and the text expected, `[secure]` in place of each value, from template literals,
  `encodeURI`/`encodeURIComponent` and a helper that puts a credential in a git URL with
  Node's `url.format` (read here with a small reader of those expressions). A value is taken
  only where the text around it says it is a credential by itself: a URL's password or user
  information, or a `token=`/`key=` parameter. The `leaked value: …` tests are not: only the
  variable's name, which is not in the text, says what is secret there.
- pip: pip hides a URL's password (and a user slot alone, which it takes for a token) in what
  it prints (`tests/unit/test_utils.py`: `test_redact_netloc`, `test_redact_auth_from_url`
  and `test_redact_auth_from_requirement`, `****` in place of each value;
  `test_remove_auth_from_url` and `tests/unit/test_direct_url.py`'s `test_redact_url` take
  the user information away whole). A requirement's expected text also respaces it and
  requotes its marker, so its URL alone is aligned with the expected URL; a removed user
  information gives its password.
- conda: conda's log handlers and output streams replace a channel token, the path segment
  after `/t/` in a channel URL, with `<TOKEN>` (`tests/gateways/test_logging.py`: a block of
  text and the block expected, single URLs and the text expected, and a table of an input and
  the token that must be gone; `tests/gateways/test_streams.py`: one URL and the text
  expected).
- copilot-for-eclipse: the plugin's telemetry anonymizer (`AnonymizeUtils.removePii`, after VS
  Code's) replaces a whole value with a label when one of its expressions finds something in
  it (`<REDACTED: Google API Key>`, `<REDACTED: Email>`, a file path's label); its test gives
  a `@CsvSource` table of a value and the text expected, and methods that build a token from
  concatenated literals so that the repository's own push protection lets it in. A value
  replaced by a vendor token's label is `known-format` when it has that vendor's full format;
  a value with a prefix alone (`xoxb-1234567890`), a JWT's header alone, a command line whose
  password is `password`, e-mail addresses and file paths are not taken, and a value expected
  unchanged is a format negative.

The secret is the input's text under each replaced span (a URL's `user:password` replaced whole
gives its password); a value that decodes (percent-encoding undone) to fewer than four
characters or to a placeholder is left out, as is a user slot alone of fewer than twelve
characters (a user name by the seventeenth build's rule; pip's `accesstoken`, which names what
stands there) and a run of one repeated character (semantic-release's `bbbbb`). A secret with a
vendor's full format is `known-format`; the others, found by the URL or parameter around them,
`keyword-context`. An input expected unchanged is a format negative. As every later build, a
label of sources9.keep is dropped, an example whose text or secret is already in the corpus or
in gitleaks' rule examples is left out, and examples sharing a secret are one event. Every
example of a test (a JavaScript `test`, a Python or Java test method) is in that test's half:
the record's `group`, `<source>:<test file>:<test>`.
"""
import argparse
import ast
import re
import sys
import textwrap
import urllib.parse

import build
import sources12
import sources17
import sources9

SEMREL = ("semantic-release", "semantic-release/semantic-release", "MIT", "8d905a56e80030c141a71a32c0c4cb870e90470a")
PIP = ("pip", "pypa/pip", "MIT", "6d309205789d368b2749d93fd6193d584811efd5")
CONDA = ("conda", "conda/conda", "BSD-3-Clause", "0f64223fb8da4328457a69fe6483959dbb783152")
COPILOT = ("copilot-for-eclipse", "microsoft/copilot-for-eclipse", "MIT", "f94e0373d7ae6cf26d91c35c92ed9394d70aa622")

# The files each text was taken from, filled by sources17.example.
TAKEN = sources17.TAKEN
example = sources17.example

# A vendor's full format. Of this build's values only copilot-for-eclipse's have one: the
# `ghp_`/`glpat-` values of semantic-release's tests are short and hold `@` and `/`.
FULL_FORMAT = re.compile(r"AIza[\w-]{35}|gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}"
                         r"|xox[abpr]-\d+-\d+-\w+|eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+")


def usable(value):
    """A replaced value that can be a secret: percent-decoded, four characters or more, not a
    placeholder, not one character repeated."""
    plain = urllib.parse.unquote(value).strip()
    return len(plain) >= 4 and not sources9.placeholder(plain) and len(set(plain)) > 1


def removed(text, want):
    """The one span text loses to become want (its common start and end kept), or None."""
    if len(want) >= len(text):
        return None
    i = 0
    while i < len(want) and text[i] == want[i]:
        i += 1
    j = 0
    while j < len(want) - i and text[-1 - j] == want[-1 - j]:
        j += 1
    if i + j != len(want):
        return None
    return i, len(text) - j


def add_row(out, src, ident, group, label, text, want, mark, path, context=None, loose=False):
    """One row of a test: a format negative when want is text, else an example of the values
    under want's marks (or of the user information want takes away when it has no mark);
    context(text, start, end), when given, must say the span stands where a credential does."""
    if not text.strip():
        return
    if text == want:
        example(out, src, ident, group, "format-negative", label, text, [], path)
        return
    if mark in want:
        if want.replace(mark, "") == text:
            return  # an empty value replaced
        spans = sources17.aligned(text, want, mark, loose)
    else:
        cut = removed(text, want)
        spans = None
        if cut and text[cut[1] - 1] == "@":
            spans = [(cut[0], cut[1] - 1)]  # the user information taken away, its @ kept out
            if not text[:cut[0]].endswith("://"):
                spans = None
    if spans is None:
        print(f"{src}: {ident}: expected text not aligned, left out", file=sys.stderr)
        return
    values = []
    for s, e in spans:
        if context and not context(text, s, e):
            continue
        v = sources17.read_span(text, s, e, kept_prefix=False)
        if v and usable(v):
            values.append(v)
    secrets = sources9.keep(text, values, {v: values.count(v) for v in values})
    if secrets:
        cls = "known-format" if all(FULL_FORMAT.fullmatch(s) for s in secrets) else "keyword-context"
        example(out, src, ident, group, cls, label, text, secrets, path)


# ---- semantic-release ----

HIDE_TEST = "test/hide-sensitive.test.js"
CONSTANTS = "lib/definitions/constants.js"
URL_PARAM = re.compile(r"(?i)[?&]?\b(?:token|key)=$")


def url_credential(text, start, end):
    """The span is a URL's password or user information, or a token= or key= parameter."""
    before, after = text[:start], text[end:]
    if URL_PARAM.search(before):
        return True
    return bool(after.startswith("@") and re.search(r"://(?:[^\s/@:]*:)?$", before))


class JS:
    """A reader of the JavaScript expressions the hide-sensitive tests build strings with:
    string and template literals, object literals, names, member access and calls of
    encodeURI, encodeURIComponent and the test's git-URL helper."""

    def __init__(self, src, scope, funcs):
        self.src, self.scope, self.funcs = src, scope, funcs

    def ws(self, i):
        while i < len(self.src) and self.src[i].isspace():
            i += 1
        return i

    def expect(self, i, s):
        i = self.ws(i)
        if not self.src.startswith(s, i):
            raise ValueError(f"{s!r} expected at {self.src[i:i + 30]!r}")
        return i + len(s)

    def expr(self, i):
        """(value, position after it)."""
        i = self.ws(i)
        c = self.src[i]
        if c in "\"'":
            j = i + 1
            while self.src[j] != c:
                j += 2 if self.src[j] == "\\" else 1
            return ast.literal_eval(self.src[i:j + 1]), j + 1
        if c == "`":
            return self.template(i + 1)
        if c == "{":
            return self.object(i + 1)
        m = re.compile(r"[A-Za-z_$][\w$]*").match(self.src, i)
        if not m:
            raise ValueError(f"no expression at {self.src[i:i + 30]!r}")
        name, i = m.group(0), m.end()
        if self.src.startswith("(", i):
            if name not in self.funcs:
                raise ValueError(f"unknown function {name}")
            arg, i = self.expr(i + 1)
            return self.funcs[name](arg), self.expect(i, ")")
        value = self.scope[name]
        while self.src.startswith(".", i):
            m = re.compile(r"\.([A-Za-z_$][\w$]*)").match(self.src, i)
            value, i = value[m.group(1)], m.end()
        return value, i

    def template(self, i):
        out = []
        while self.src[i] != "`":
            if self.src.startswith("${", i):
                v, i = self.expr(i + 2)
                out.append(v)
                i = self.expect(i, "}")
            elif self.src[i] == "\\":
                out.append(ast.literal_eval('"' + self.src[i:i + 2] + '"'))
                i += 2
            else:
                out.append(self.src[i])
                i += 1
        return "".join(out), i + 1

    def object(self, i):
        obj = {}
        while True:
            i = self.ws(i)
            if self.src[i] == "}":
                return obj, i + 1
            m = re.compile(r"([A-Za-z_$][\w$]*)\s*(:?)").match(self.src, i)
            key, i = m.group(1), m.end()
            if m.group(2):
                obj[key], i = self.expr(i)
            else:
                obj[key] = self.scope[key]
            i = self.ws(i)
            if self.src[i] == ",":
                i += 1


def js_tests(src):
    """(name, body, scope) of each test of a test file, a loop's tests once for each value."""
    out = []
    loops = list(re.finditer(r"(?ms)^for \(const (\w+) of (\[[^\]]*\])\) \{\n(.*?)^\}", src))
    for m in re.finditer(r"(?ms)^([ \t]*)test\((.*?)^\1\}\);", src):
        loop = next((l for l in loops if l.start() <= m.start() < l.end()), None)
        values = [(loop.group(1), v) for v in ast.literal_eval(loop.group(2))] if loop else [(None, None)]
        for var, v in values:
            scope = {var: v} if var else {}
            name, pos = JS(m.group(2), scope, {}).expr(0)
            out.append((name, m.group(2)[pos:], scope))
    return out


def semrel(repo, out):
    src = SEMREL[0]
    code = repo.show(HIDE_TEST)
    consts = dict(re.findall(r'export const (\w+) = "([^"]*)";', repo.show(CONSTANTS)))
    base = re.search(r'const gitAuthUrl = \(auth\) => format\(\{ \.\.\.parse\("(\w+://)([^"]+)"\), auth \}\);', code)
    # url.format writes the auth field as encodeURIComponent does, its `:` kept as is
    funcs = {"encodeURI": lambda s: urllib.parse.quote(s, safe=";,/?:@&=+$-_.!~*'()#"),
             "encodeURIComponent": lambda s: urllib.parse.quote(s, safe="-_.!~*'()"),
             "gitAuthUrl": lambda a: base.group(1) + urllib.parse.quote(a, safe="-_.!~*'():") + "@" + base.group(2)}
    mark = consts["SECRET_REPLACEMENT"]
    file = HIDE_TEST.rsplit("/", 1)[1]
    for name, body, scope in js_tests(code):
        scope = dict(scope, SECRET_REPLACEMENT=mark)
        js = JS(body, scope, funcs)
        rows = []
        try:
            for m in re.finditer(r"\bconst (\w+) = |\bt\.is\(\s*hideSensitive\(", body):
                if m.group(1):
                    scope[m.group(1)], _ = js.expr(m.end())
                    continue
                _, i = js.expr(m.end())  # the environment
                text, i = js.expr(js.expect(i, ")("))
                want, _ = js.expr(js.expect(js.expect(i, ")"), ","))
                rows.append((text, want))
        except (ValueError, KeyError, IndexError, SyntaxError) as e:
            print(f"{src}: {name}: not read ({e})", file=sys.stderr)
            continue
        for k, (text, want) in enumerate(rows):
            if isinstance(text, str) and isinstance(want, str):
                add_row(out, src, f"{src}:{file}:{name}" + (f":{k}" if k else ""), f"{file}:{name}", name, text, want,
                        mark, HIDE_TEST, context=url_credential)


# ---- pip and conda: Python tests ----

def py_functions(code):
    return {n.name: n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.FunctionDef)}


def py_value(node, scope):
    """A string a test writes: a literal, a name bound to one, or a dals()/dedent() of one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in scope:
        return scope[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dals" and len(node.args) == 1:
        s = py_value(node.args[0], scope)
        return None if s is None else textwrap.dedent(s).lstrip()
    return None


def py_params(fn):
    """The rows of a function's pytest.mark.parametrize table, pytest.param(…) read as its
    values."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and getattr(d.func, "attr", "") == "parametrize":
            rows = []
            for elt in d.args[1].elts:
                if isinstance(elt, ast.Call):  # pytest.param(…, id=…)
                    elt = ast.Tuple(elts=elt.args)
                rows.append([py_value(x, {}) for x in elt.elts])
            return rows
    return []


def py_asserts(fn, name):
    """(input, expected) of each `assert <name>(x) == y` of a function, a chain `a == b == c`
    giving (x, c); names bound to strings in the function are read."""
    scope = {}
    for st in ast.walk(fn):
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            v = py_value(st.value, scope)
            if v is not None:
                scope[st.targets[0].id] = v
    rows = []
    for st in ast.walk(fn):
        if isinstance(st, ast.Assert) and isinstance(st.test, ast.Compare) and isinstance(st.test.ops[0], ast.Eq):
            left = st.test.left
            if isinstance(left, ast.Call) and (getattr(left.func, "id", None) == name or getattr(left.func, "attr", None) == name):
                rows.append((py_value(left.args[0], scope), py_value(st.test.comparators[-1], scope)))
    return rows


PIP_UTILS = "tests/unit/test_utils.py"
PIP_DIRECT = "tests/unit/test_direct_url.py"
URL = re.compile(r"\S+://\S+")


def pip(repo, out):
    src = PIP[0]
    fns = py_functions(repo.show(PIP_UTILS))
    for fn, cols in [("test_redact_netloc", (0, 1)), ("test_redact_auth_from_url", (0, 1)),
                     ("test_remove_auth_from_url", (0, 1)), ("test_redact_auth_from_requirement", (0, 1))]:
        for k, row in enumerate(py_params(fns[fn])):
            text, want = row[cols[0]], row[cols[1]]
            if text is None or want is None:
                continue
            if fn == "test_redact_auth_from_requirement" and text != want:
                # the requirement is respaced and requoted too: its URL against the expected URL
                a, b = URL.search(text), URL.search(want)
                if not a or not b:
                    continue
                spans = sources17.aligned(a.group(0), b.group(0), "****")
                if spans is None:
                    continue
                want = text[:a.start()] + b.group(0) + text[a.end():]
            add_row(out, src, f"{src}:test_utils.py:{fn}:{k}", f"test_utils.py:{fn}", fn, text, want, "****", PIP_UTILS)
    fns = py_functions(repo.show(PIP_DIRECT))
    for helper in ("_redact_git", "_redact_archive"):
        for k, (text, want) in enumerate(py_asserts(fns["test_redact_url"], helper)):
            if text is not None and want is not None:
                add_row(out, src, f"{src}:test_direct_url.py:test_redact_url:{helper}:{k}", "test_direct_url.py:test_redact_url",
                        "test_redact_url", text, want, "****", PIP_DIRECT)


CONDA_LOGGING = "tests/gateways/test_logging.py"
CONDA_STREAMS = "tests/gateways/test_streams.py"
TOKEN = "<TOKEN>"


def conda(repo, out):
    src = CONDA[0]
    fns = py_functions(repo.show(CONDA_LOGGING))
    for fn in ("test_token_replace_big_string", "test_token_replace_individual_strings"):
        for k, (text, want) in enumerate(py_asserts(fns[fn], "TR")):
            if text is not None and want is not None:
                add_row(out, src, f"{src}:test_logging.py:{fn}:{k}", f"test_logging.py:{fn}", fn, text, want, TOKEN,
                        CONDA_LOGGING)
    fn = "test_token_url_filter_formats"
    for k, (text, present, absent) in enumerate(py_params(fns[fn])):
        # the token the test says must be gone, where the filter's <TOKEN> goes
        if absent and f"/t/{absent}/" in text and TOKEN in present:
            secrets = sources9.keep(text, [absent] if usable(absent) else [])
            if secrets:
                example(out, src, f"{src}:test_logging.py:{fn}:{k}", f"test_logging.py:{fn}", "keyword-context", fn, text,
                        secrets, CONDA_LOGGING)
    fns = py_functions(repo.show(CONDA_STREAMS))
    fn = "test_redact_token_urls_matches_token_url_filter"
    for k, (text, want) in enumerate(py_asserts(fns[fn], "redact_token_urls")):
        if text is not None and want is not None:
            add_row(out, src, f"{src}:test_streams.py:{fn}:{k}", f"test_streams.py:{fn}", fn, text, want, TOKEN,
                    CONDA_STREAMS)


# ---- copilot-for-eclipse ----

ANON_TEST = ("com.microsoft.copilot.eclipse.core.test/src/com/microsoft/copilot/eclipse/core/utils/"
             "AnonymizeUtilsTests.java")
ANON = "com.microsoft.copilot.eclipse.core/src/com/microsoft/copilot/eclipse/core/utils/AnonymizeUtils.java"
JAVA_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
# The labels the anonymizer replaces a vendor's token with; the others (an e-mail address, a
# file path, a command line's credentials, a generic secret's keyword) are no format.
FORMAT_LABELS = {"Google API Key", "GitHub Token", "Slack Token", "Microsoft Entra ID"}


def java_string(body):
    """A Java string literal's value (its escapes, \\\\, \\", \\n, \\r and \\t, are Python's too)."""
    return ast.literal_eval('"' + body + '"')


def csv_row(line):
    """The values of a JUnit @CsvSource row: comma-separated, blanks around each trimmed,
    single quotes around a value taken off ('' inside one a quote); an empty unquoted value is
    null (None)."""
    out, i = [], 0
    while i <= len(line):
        while i < len(line) and line[i] == " ":
            i += 1
        if i < len(line) and line[i] == "'":
            j, v = i + 1, []
            while j < len(line):
                if line[j] == "'" and line[j + 1:j + 2] == "'":
                    v.append("'")
                    j += 2
                elif line[j] == "'":
                    break
                else:
                    v.append(line[j])
                    j += 1
            out.append("".join(v))
            i = line.find(",", j)
        else:
            j = line.find(",", i)
            v = (line[i:] if j < 0 else line[i:j]).strip()
            out.append(v or None)
            i = j
        if i < 0:
            break
        i += 1
    return out


def java_tests(code):
    """(name, annotation, body) of each test method."""
    return [(m.group(3), m.group(1), m.group(4)) for m in re.finditer(
        r"(@(?:ParameterizedTest|Test|RepeatedTest)[^\n]*(?:\n\s*@\w+[^\n]*)*?(?:\s*@CsvSource\(\{(.*?)\}\))?)\s*void (\w+)\(.*?\)\s*\{(.*?)\n  \}",
        code, re.S)]


def java_concat(expr, scope):
    """A Java expression of string literals and names joined by +."""
    parts = []
    for term in re.split(r"\s*\+\s*", expr.strip()):
        m = JAVA_STRING.fullmatch(term)
        if m:
            parts.append(java_string(m.group(1)))
        elif term in scope:
            parts.append(scope[term])
        else:
            return None
    return "".join(parts)


def anonymizer_row(out, src, ident, group, label, text, want, path):
    """A value and the text the anonymizer must make of it: unchanged, a format negative;
    replaced whole by a vendor token's label, an example of the value when it has the vendor's
    full format (a prefix alone, or a JWT's header alone, says nothing secret)."""
    if not text or not text.strip() or want is None:
        return
    if text == want:
        example(out, src, ident, group, "format-negative", label, text, [], path)
        return
    m = re.fullmatch(r"<REDACTED: ([^>]+)>", want)
    if m and m.group(1) in FORMAT_LABELS and FULL_FORMAT.search(text):
        secrets = sources9.keep(text, [text.strip()])
        if secrets:
            example(out, src, ident, group, "known-format", label, text, secrets, path)


def copilot(repo, out):
    src = COPILOT[0]
    code = repo.show(ANON_TEST)
    file = ANON_TEST.rsplit("/", 1)[1]
    for name, annotation, body in java_tests(code):
        csv = re.search(r"@CsvSource\(\{(.*)\}\)", annotation, re.S)
        if csv:
            for k, lit in enumerate(JAVA_STRING.finditer(csv.group(1))):
                row = csv_row(java_string(lit.group(1)))
                if len(row) == 3:
                    anonymizer_row(out, src, f"{src}:{file}:{name}:{k}", f"{file}:{name}", row[0] or name, row[1], row[2], ANON_TEST)
            continue
        scope = {}
        for m in re.finditer(r'final String (\w+) = ((?:"(?:[^"\\]|\\.)*"|[^;"])*);', body, re.S):
            v = java_concat(m.group(2), scope)
            if v is not None:
                scope[m.group(1)] = v
        for k, m in enumerate(re.finditer(r"assertEquals\((.*?),\s*AnonymizeUtils\.removePii\((.*?)\)\);", body, re.S)):
            want, text = java_concat(m.group(1), scope), java_concat(m.group(2), scope)
            if text is not None and want is not None:
                anonymizer_row(out, src, f"{src}:{file}:{name}:{k}", f"{file}:{name}", name, text, want, ANON_TEST)


TAKEN_AS = {"semantic-release": "hide-sensitive test input (labels: the text the test expects hide-sensitive to make of it)",
            "pip": "URL redaction test input (labels: the text the test expects the redaction to make of it)",
            "conda": "channel token filter test input (labels: the text the test expects the filter to make of it, "
                     "or the token it expects gone)",
            "copilot-for-eclipse": "telemetry anonymizer test input (labels: the text the test expects the anonymizer "
                                   "to make of it)"}
FACTS = {"semantic-release": [(CONSTANTS, "facts only: the replacement text"),
                              ("lib/hide-sensitive.js", "facts only: the forms of a value it hides")],
         "pip": [],
         "conda": [("conda/gateways/streams.py", "facts only: the expression a channel token is found by")],
         "copilot-for-eclipse": [(ANON, "facts only: the expressions behind each label it replaces a value with")]}


def add(mirror):
    """This build's examples and files (sources12.add_builds)."""
    sources12.add_builds(mirror, [(SEMREL, semrel, ["LICENSE"]), (PIP, pip, ["LICENSE.txt"]), (CONDA, conda, ["LICENSE"]),
                                  (COPILOT, copilot, ["LICENSE"])],
                         TAKEN, TAKEN_AS, lambda src, repo, taken: FACTS[src])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
