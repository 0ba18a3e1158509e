#!/usr/bin/env python3
"""KICS (a fourth corpus build): credentials written into infrastructure-as-code files —
Terraform/HCL, CloudFormation, Kubernetes, Ansible, Dockerfiles, ARM/Bicep — labelled by
the tests of KICS's secret-detection query (assets/queries/common/passwords_and_secrets).

    python3 testdata/eval/sources4.py --zip kics-v2.2.0.zip

reads the Go module zip the module proxy serves
(https://proxy.golang.org/github.com/!checkmarx/kics/v2/@v/v2.2.0.zip; a clone of the
repository is far larger), replaces this build's examples in secrets.jsonl and its files in
manifest.json, and writes licenses/kics.txt. Labels are the query's own:

- every finding `test/positive_expected_result.json` expects (a file and a line) is one
  example: the line with the three lines above it (the key a YAML `value:` or a
  CloudFormation `Default:` belongs to), the secret the value on that line. A finding of a
  rule for a token format with a literal signature (AWS, Google, Slack, Stripe, …) is
  `known-format`, one of the generic rules (password, secret, token, key names) is
  `keyword-context`.
- every line of a `test/negative*` file that names a credential and gives it a value is a
  format negative, in the same window.
"""
import argparse
import json
import re
import sys
import warnings
import zipfile

import build
import sources3

SOURCE = "kics"
REPO = "Checkmarx/kics"
VERSION = "v2.2.0"
LICENCE = "Apache-2.0"
QUERY = "assets/queries/common/passwords_and_secrets/"
CONTEXT = 3  # lines above a labelled line kept with it

# The query's rules whose match carries a vendor's literal signature.
FORMATS = [
    ("AWS Access Key", r"(?:A3T[A-Z0-9]|AKIA|ASIA|ACCA|ASCA)[A-Z0-9]{16}"),
    ("Google OAuth", r"[0-9]+-[0-9A-Za-z_]{32}\.apps\.googleusercontent\.com"),
    ("Slack Webhook", r"https://hooks\.slack\.com/services/T[a-zA-Z0-9_]{8}/B[a-zA-Z0-9_]{8}/[a-zA-Z0-9_]{24}"),
    ("MSTeams Webhook", r"https://[a-zA-Z0-9_]{1,24}\.webhook\.office\.com/webhook(?:b2)?/[0-9a-f-]{36}@[0-9a-f-]{36}/IncomingWebhook/[0-9a-f]{32}/[0-9a-f-]{36}"),
    ("Slack Token", r"xox[pboa]-[0-9]{12}-[0-9]{12}-[0-9]{12}-[a-z0-9]{32}"),
    ("Stripe API Key", r"[sr]k_live_[0-9a-zA-Z]{24,32}"),
    ("Square Access Token", r"sq0atp-[0-9A-Za-z\-_]{22}"),
    ("Square OAuth Secret", r"sq0csp-[0-9A-Za-z\-_]{43}"),
    ("MailChimp API Key", r"[0-9a-f]{32}-us[0-9]{1,2}"),
    ("Google API Key", r"AIza[0-9A-Za-z\-_]{35}"),
    ("Amazon MWS Auth Token", r"amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    ("Google OAuth Access Token", r"ya29\.[0-9A-Za-z\-_]+"),
    ("PayPal Braintree Access Token", r"access_token\$production\$[0-9a-z]{16}\$[0-9a-f]{32}"),
    ("Facebook Access Token", r"EAACEdEose0cBA[0-9A-Za-z]+"),
    ("Mailgun API Key", r"key-[0-9a-zA-Z]{32}"),
    ("Twilio API Key", r"SK[0-9a-fA-F]{32}"),
    ("SendGrid API Key", r"SG\.[a-zA-Z0-9\-_]{22}\.[a-zA-Z0-9\-_]{43}"),
]
FORMATS = [(n, re.compile(p)) for n, p in FORMATS]
# A URL with a password: the password is the secret.
URL_PASSWORD = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]{2,9}://[^/\s:@$]*:([^/\s:@$]+)@")
# A name, then `:`/`=` (or a Dockerfile ENV's blank), then the value: quoted, or up to the end.
VALUE = re.compile(r"""^\s*(?:-\s+)?(?:ENV\s+|ARG\s+)?["']?([\w.\-/\[\]]+?)["']?\s*(?:[:=]\s*|\s+(?=["'\w]))(.*?)\s*,?\s*$""")
CREDENTIAL_NAME = re.compile(r"(?i)pass|secret|token|api_?key|access_?key|private_?key|encryption_?key|credential|auth")


def line_value(line):
    """The value a credential line gives, or None."""
    m = VALUE.match(line)
    if not m:
        return None
    v = sources3.unquote(m.group(2))
    return v or None


# The query's rules that span lines (a private key or PuTTY file, flagged on its first line)
# and the one whose match is a JSON template of the secret's other fields: left out.
LEFT_OUT = {"Asymmetric private key", "Putty User Key File Content", "CloudFormation Secret Template"}
# A trailing comment of the test files numbers its case (`#2`, `//#3`): not part of a value.
COMMENT = re.compile(r"\s+(?:#|//).*$")
# A value that is a template expression refers to a secret kept elsewhere; the query's own
# allow rules say so, and a few positive files flag one on purpose to test them.
REFERENCE = re.compile(r"^(?:\$\{|\{\{|!\w|\[\w+\(|\w+\()")


def kics_rules(zf, root):
    """The query's single-line rules, by name: each match's last group is the value."""
    rules = {}
    for r in json.loads(zf.read(root + QUERY + "regex_rules.json"))["rules"]:
        if "multiline" in r or r["name"] in LEFT_OUT:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rules[r["name"]] = re.compile(r["regex"])
    return rules


def rule_value(rx, line):
    """The value the rightmost match of a rule captures on a line."""
    found = None
    for m in rx.finditer(line):
        groups = [g for g in m.groups() if g]
        found = groups[-1] if groups else m.group(0)
    return sources3.unquote(found.strip()) if found else None


def label(line, rule=None, rules=None):
    """(class, rule, secrets) of a flagged line."""
    line = COMMENT.sub("", line)
    if rule in LEFT_OUT:
        return "keyword-context", rule, []
    for name, rx in FORMATS:
        found = rx.findall(line)
        if found:
            return "known-format", name, found
    m = URL_PASSWORD.search(line)
    if m:
        return "keyword-context", "Password in URL", [m.group(1)]
    v = rule_value(rules[rule], line) if rules and rule in rules else line_value(line)
    if v and REFERENCE.match(v):
        v = None
    return "keyword-context", "generic", [v] if v else []


def window(lines, n):
    """The labelled line (1-based n) with up to CONTEXT lines above it."""
    return "\n".join(lines[max(0, n - 1 - CONTEXT):n])


def kics(zf, root, out):
    test = root + QUERY + "test/"
    rules = kics_rules(zf, root)
    expected = json.loads(zf.read(test + "positive_expected_result.json"))
    by_file = {}
    for f in expected:
        by_file.setdefault(f["fileName"], []).append(f)
    for name in sorted(by_file):
        lines = zf.read(test + name).decode("utf-8", "replace").splitlines()
        sources3.record(SOURCE, Module, QUERY + "test/" + name, "lines positive_expected_result.json expects a finding on (labels)")
        for f in sorted(by_file[name], key=lambda f: f["line"]):
            n = f["line"]
            if not 1 <= n <= len(lines):
                continue
            cls, rule, secrets = label(lines[n - 1], f["queryName"].removeprefix("Passwords And Secrets - "), rules)
            secrets = [s for s in secrets if not build.is_placeholder(s) and len(s) >= 4]
            if not secrets:
                continue
            rule = f["queryName"].removeprefix("Passwords And Secrets - ") if rule == "generic" else rule
            sources3.example(out, SOURCE, f"kics:{QUERY}test/{name}:{n}", cls, rule, window(lines, n), secrets)
    for name in sorted(n for n in zf.namelist() if n.startswith(test + "negative")):
        short = name[len(test):]
        lines = zf.read(name).decode("utf-8", "replace").splitlines()
        taken = False
        for i, line in enumerate(lines, 1):
            m = VALUE.match(line)
            if not m or not CREDENTIAL_NAME.search(m.group(1)) or not line_value(line):
                continue
            taken = True
            sources3.example(out, SOURCE, f"kics:{QUERY}test/{short}:{i}", "format-negative", "negative test",
                             window(lines, i), [])
        if taken:
            sources3.record(SOURCE, Module, QUERY + "test/" + short, "lines naming a credential (format negatives)")


class Module:
    name = REPO
    commit = VERSION + " (Go module github.com/Checkmarx/kics/v2)"


def add(path):
    """Replaces this build's examples in secrets.jsonl and its files in manifest.json."""
    zf = zipfile.ZipFile(path)
    root = f"github.com/Checkmarx/kics/v2@{VERSION}/"
    sources3.add_build(SOURCE, REPO, LICENCE, lambda new: kics(zf, root, new), "kics.txt",
                       lambda: zf.read(root + "LICENSE"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zip", required=True)
    add(ap.parse_args().zip)


if __name__ == "__main__":
    main()
