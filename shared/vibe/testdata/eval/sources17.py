#!/usr/bin/env python3
"""The Cloud Foundry CLI's request-trace sanitizer, Snyk's log scrubber and Composer's URL and
command sanitizers (a seventeenth corpus build): three tools that hide credentials in the text
they print or log, labelled by the text each test expects them to make of an input.

    python3 testdata/eval/sources17.py --mirror <dir>

reads bare clones under `<dir>/cloudfoundry+cli/repo`, `<dir>/snyk+go-application-framework/repo`
and `<dir>/composer+composer/repo` at the commits named below, replaces this build's examples
in secrets.jsonl and its files in manifest.json, and writes each licence to
licenses/<source>.txt.

- cf-cli: `cf -v` prints every request and response with `trace.Sanitize`
  (`cf/trace/trace_test.go`: each `It` gives a dump and the dump expected, `[PRIVATE DATA
  HIDDEN]` in place of what is hidden); `util/ui`'s request loggers run it on a dump and their
  tests expect named header lines hidden (`Authorization: \\[PRIVATE DATA HIDDEN\\]`); the JSON
  sanitizer's table (`util/ui/sanitize_json_test.go`) expects one value replaced wherever it
  stands (`strings.Replace(original, "CrAzY_PaSSw0rd", RedactedValue, -1)`).
- snyk: the log writer of Snyk's CLI framework scrubs what its built-in expressions find
  (`pkg/logging/scrubbingLogWriter_test.go`): the tables of `TestAddDefaults` and
  `TestSnykPATScrubbing` (an input and the text expected, `***` in place of each match) and the
  one input of `TestScrub_MatchesPrivateScrubPath`. The tests that scrub terms they configure
  themselves (a dictionary, `AddTermsToReplace`, the configured token) and the row built from
  the current user's name are not taken: nothing in their text says what is secret.
- composer: Composer hides credentials in URLs it prints and in the commands it logs
  (`tests/Composer/Test/Util/UrlTest.php` `sanitizeProvider`,
  `tests/Composer/Test/Util/ProcessExecutorTest.php` `hidePasswordProvider`,
  `tests/Composer/Test/Util/Http/ProxyItemTest.php` `dataFormatting`): rows of an input and the
  text expected, `***` in place of each value. A user slot of twelve characters or more, or a
  GitHub token there, keeps its first three characters (`ghp***`): the secret is the whole
  value, the characters left showing joined back on.

The secret is the input's text under each replaced span (a span the expected text keeps the
first characters of a token before is joined with them; a scheme word, `bearer`/`basic`, is
taken off; a URL's `user:password` gives its password). Left out: user names the scrubbers
also hide (`-u john.doe`, `"REGISTRY_USERNAME"`, a URL's short user), the fixed words GitHub
takes as a password beside a token (`x-oauth-basic`, `x-oauth-token`), a token's type
(`"token_type":"bearer"`), and a span holding a blank (several words, or a list of an image, a
user and a password). A secret with a literal signature of the expression that finds it
(`ghp_`, `github_pat_`, Snyk's `snyk_uat.`/`snyk_sat.`, a JWT's `eyJ`) is `known-format`; one
found by the name, header, flag or URL around it `keyword-context`. An input expected
unchanged is a format negative; a row that changes for other reasons (a port added) is not
taken. As every later build, a label of sources9.keep is dropped, an example whose text or
secret is already in the corpus or in gitleaks' rule examples is left out, and examples
sharing a secret are one event. Every example of a test (an `It`, a Go test function, a PHP
data provider) is in that test's half: the record's `group`, `<source>:<test file>:<test>`.
"""
import argparse
import re
import sys

import build
import sources12
import sources14
import sources15
import sources16
import sources9

CFCLI = ("cf-cli", "cloudfoundry/cli", "Apache-2.0", "ccfd649d158cf439db18788e6e77a13861e3c01a")
SNYK = ("snyk", "snyk/go-application-framework", "Apache-2.0", "950008a929b988f051b93487d769532362f68c2b")
COMPOSER = ("composer", "composer/composer", "MIT", "eba7baa59eb1b59246cf9800b0120fe78915b6ac")

TAKEN = {}

# Values the scrubbers hide that are no secret: GitHub's fixed password words beside a token
# in a URL, and a token's type.
NOT_SECRET = {"x-oauth-basic", "x-oauth-token", "bearer"}
SCHEME = re.compile(r"(?i)^(?:bearer|basic|token|negotiate)\s+")
# What stands before a user name's value: `-u `, `-u=`, `'u': '`, `u: '`, `"REGISTRY_USERNAME": "`.
USER_BEFORE = re.compile(r"""(?i)(?:(?:^|[\s{,'"])-?u|username)['"]?\s*[:=]?\s*['"]?$""")
# A JWT, or a token with a format's literal signature.
SIGNED = re.compile(r"^(?:eyJ|ghp_|gho_|ghs_|github_pat_|snyk_uat\.|snyk_sat\.)")


def example(out, src, ident, group, cls, label, text, secrets, path):
    TAKEN.setdefault((src, text), set()).add(path)
    out.append({"id": ident, "source": src, "split": build.split_of(ident), "group": f"{src}:{group}", "class": cls,
                "label": label, "text": text, "secrets": sorted(set(secrets))})


def aligned(text, want, mark, loose=False):
    """The (start, end) spans of text that want replaces by mark (adjacent marks read as one),
    or None when the two do not align. loose lets blanks, and a blank after a colon, differ
    (a sanitizer that writes `"password":"…"` for `"password": "…"`)."""
    parts = re.split(r"(?:" + re.escape(mark) + r")+", want)
    if len(parts) < 2:
        return None
    pieces = []
    for p in parts:
        rx = []
        for c in p:
            if loose and c.isspace():
                rx.append(r"\s*")
            else:
                rx.append(re.escape(c) + (r"\s*" if loose and c == ":" else ""))
        pieces.append("".join(rx))
    m = re.fullmatch("(.+?)".join(pieces), text, re.S)
    if not m:
        return None
    return [(m.start(i), m.end(i)) for i in range(1, len(parts))]


def read_span(text, start, end, kept_prefix=True):
    """The secret under a replaced span, or None when it is not one: the token characters the
    expected text leaves showing just before it joined back on, a scheme word taken off, a URL's
    user:password read as its password; a user name's value, a blank-holding span and the words
    of NOT_SECRET give None."""
    if kept_prefix:
        while start > 0 and re.match(r"[\w.-]", text[start - 1]):
            start -= 1
    value = text[start:end]
    before = text[:start]
    if USER_BEFORE.search(before):
        return None
    value = SCHEME.sub("", value)
    if before.endswith("://") and re.fullmatch(r"[^:@/\s]+:[^@/\s]+", value):
        value = value.split(":", 1)[1]  # the whole user:password replaced: its password
    elif (re.match(r"(?::[^@\s/]*)?@", text[end:]) and (before.endswith("://") or not before or before[-1].isspace())
            and len(value) < 12 and not SIGNED.match(value)):
        return None  # a URL's user slot: a user name unless long or a token (Composer hides those too)
    if re.search(r"\s", value) or value.lower() in NOT_SECRET:
        return None
    return value


def add_row(out, src, ident, group, label, text, want, mark, path, loose=False, kept_prefix=True):
    """One row of a test: a format negative when want is text, else an example of the values
    under want's marks (none: the row is not taken)."""
    if not text.strip():
        return
    if text == want:
        example(out, src, ident, group, "format-negative", label, text, [], path)
        return
    spans = aligned(text, want, mark, loose)
    if spans is None:
        print(f"{src}: {ident}: expected text not aligned, left out", file=sys.stderr)
        return
    values = [v for v in (read_span(text, s, e, kept_prefix) for s, e in spans) if v]
    secrets = sources9.keep(text, values, {v: values.count(v) for v in values})
    if secrets:
        cls = "known-format" if all(SIGNED.match(s) for s in secrets) else "keyword-context"
        example(out, src, ident, group, cls, label, text, secrets, path)


# ---- cf-cli ----

TRACE_TEST = "cf/trace/trace_test.go"
JSON_TEST = "util/ui/sanitize_json_test.go"
DUMP_TESTS = ["util/ui/request_logger_file_writer_test.go", "util/ui/request_logger_terminal_display_test.go"]
HIDDEN = "[PRIVATE DATA HIDDEN]"
BACKQUOTED = re.compile(r"(\w+)\s*:=\s*`([^`]*)`")


def its(src_text):
    """(name, body) of each Ginkgo `It` of a test file, to the next `It`."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r'\bIt\("([^"]+)", func\(\) \{(.*?)(?=\bIt\("|\Z)', src_text, re.S)]


def cfcli(repo, out):
    src = CFCLI[0]
    for name, body in its(repo.show(TRACE_TEST)):
        lits = dict(BACKQUOTED.findall(body))
        text = lits.get("request", lits.get("response"))
        if text is None or "expected" not in lits:
            continue
        add_row(out, src, f"{src}:trace_test.go:{name}", f"trace_test.go:{name}", name, text.strip("\n").rstrip(),
                lits["expected"].strip("\n").rstrip(), HIDDEN, TRACE_TEST, loose=True, kept_prefix=False)
    # The JSON sanitizer's table: the value the test replaces, in each entry.
    body = repo.show(JSON_TEST)
    value = re.search(r'strings\.Replace\(original, "([^"]+)", RedactedValue, -1\)', body).group(1)
    table = re.search(r'DescribeTable\("([^"]+)"', body).group(1)
    for k, m in enumerate(re.finditer(r"Entry\(\"[^\"]*\", `([^`]*)`\)", body)):
        text = m.group(1)
        example(out, src, f"{src}:sanitize_json_test.go:{table}:{k}", f"sanitize_json_test.go:{table}", "keyword-context",
                table, text, sources9.keep(text, [value], {value: text.count(value)}), JSON_TEST)
    # The request loggers' dumps: the header lines the tests expect hidden.
    for path in DUMP_TESTS:
        for name, body in its(repo.show(path)):
            lits = dict(BACKQUOTED.findall(body))
            if "dump" not in lits:
                continue
            text = lits["dump"]
            headers = set(re.findall(r"`([\w-]+): \\\[PRIVATE DATA HIDDEN\\\]`", body))
            values = []
            for h in sorted(headers):
                line = re.search(r"(?m)^" + re.escape(h) + r": (.*)$", text)
                if line:
                    v = SCHEME.sub("", line.group(1).strip())
                    if not re.search(r"\s", v):
                        values.append(v)
            secrets = sources9.keep(text, values)
            if secrets:
                cls = "known-format" if all(SIGNED.match(s) for s in secrets) else "keyword-context"
                file = path.rsplit("/", 1)[1]
                example(out, src, f"{src}:{file}:{name}", f"{file}:{name}", cls, name, text, secrets, path)


# ---- snyk ----

SCRUB_TEST = "pkg/logging/scrubbingLogWriter_test.go"
SCRUB_TABLES = ["TestAddDefaults", "TestSnykPATScrubbing"]
STARS = "***"


def snyk(repo, out):
    src = SNYK[0]
    for fn, body in sources15.go_functions(repo.show(SCRUB_TEST)):
        if fn in SCRUB_TABLES:
            env = sources16.GoEnv(body)
            for k, row in enumerate(sources16.field_exprs(body, {"name", "input", "expected"})):
                if "input" not in row or "expected" not in row:
                    continue
                try:
                    text, want = env.expr(list(row["input"])), env.expr(list(row["expected"]))
                except (ValueError, KeyError, IndexError, AssertionError) as e:
                    print(f"{src}: {fn} row {k}: not read ({e})", file=sys.stderr)
                    continue
                name = sources14.go_literal(row["name"][0]) if row.get("name") else str(k)
                add_row(out, src, f"{src}:{fn}:{name}", f"scrubbingLogWriter_test.go:{fn}", name, text, want, STARS,
                        SCRUB_TEST)
        elif fn == "TestScrub_MatchesPrivateScrubPath":
            text = sources14.go_literal(re.search(r'input := \[\]byte\(("(?:[^"\\]|\\.)*")\)', body).group(1))
            want = sources14.go_literal(re.search(r'assert\.Equal\(t, ("(?:[^"\\]|\\.)*"), string\(actual\)', body).group(1))
            add_row(out, src, f"{src}:{fn}", f"scrubbingLogWriter_test.go:{fn}", fn, text, want, STARS, SCRUB_TEST)


# ---- composer ----

# (test file, data provider, the column of the input, the column of the expected text)
PROVIDERS = [("tests/Composer/Test/Util/UrlTest.php", "sanitizeProvider", 1, 0),
             ("tests/Composer/Test/Util/ProcessExecutorTest.php", "hidePasswordProvider", 0, 1),
             ("tests/Composer/Test/Util/Http/ProxyItemTest.php", "dataFormatting", 0, 1)]
PHP_STRING = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)\"""")


def php_string(m):
    """A PHP string literal's value: single quotes unescape \\' and \\\\, double quotes \\", \\\\,
    \\$, \\n and \\t (a \\' stays as written there)."""
    if m.group(1) is not None:
        return re.sub(r"\\([\\'])", r"\1", m.group(1))
    return re.sub(r"\\([\\\"$nt])", lambda e: {"n": "\n", "t": "\t"}.get(e.group(1), e.group(1)), m.group(2))


def provider_rows(src_text, provider):
    """(key or index, [strings]) of each row of a data provider's returned array."""
    body = re.search(r"function " + provider + r"\(\)[^{]*\{(.*?)\n    \}", src_text, re.S).group(1)
    rows = []
    for k, line in enumerate(body.splitlines()):
        m = re.match(r"""^\s*(?:'([^']*)'\s*=>\s*)?(?:\[|array\()(.*)(?:\]|\)),\s*$""", line)
        if m:
            strings = [php_string(s) for s in PHP_STRING.finditer(m.group(2))]
            rows.append((m.group(1) or str(k), strings))
    return rows


def composer(repo, out):
    src = COMPOSER[0]
    for path, provider, col_in, col_want in PROVIDERS:
        file = path.rsplit("/", 1)[1]
        for key, strings in provider_rows(repo.show(path), provider):
            if len(strings) < 2:
                continue
            text, want = strings[col_in], strings[col_want]
            add_row(out, src, f"{src}:{file}:{provider}:{key}", f"{file}:{provider}", provider, text, want, STARS, path)


TAKEN_AS = {"cf-cli": "request trace sanitizer test input (labels: the text the test expects the sanitizer to make of it)",
            "snyk": "log scrubber test input (labels: the text the test expects the scrubber to make of it)",
            "composer": "URL and command sanitizer test input (labels: the text the test expects the sanitizer to make of it)"}
FACTS = {"cf-cli": [("cf/trace/trace.go", "facts only: the expressions the trace sanitizer hides values by")],
         "snyk": [("pkg/logging/scrubbingLogWriter.go", "facts only: which built-in expression finds each value (its class)")],
         "composer": [("src/Composer/Util/Url.php", "facts only: which values a user slot is hidden for (its class)")]}


def add(mirror):
    """This build's examples and files (sources12.add_builds)."""
    sources12.add_builds(mirror, [(CFCLI, cfcli, ["LICENSE", "NOTICE"]), (SNYK, snyk, ["LICENSE"]),
                                  (COMPOSER, composer, ["LICENSE"])], TAKEN, TAKEN_AS,
                         lambda src, repo, taken: FACTS[src])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", required=True)
    add(ap.parse_args().mirror)


if __name__ == "__main__":
    main()
