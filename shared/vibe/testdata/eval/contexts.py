#!/usr/bin/env python3
"""Puts the secrets of the development half into the contexts coding agents produce.

    python3 testdata/eval/contexts.py

reads secrets.jsonl and writes contexts.jsonl: for every secret-bearing example of the
development half, three of the contexts below (chosen by the SHA-256 of its id), each an
event {id, source, split, class, label, text, secrets, before}. `before` holds events the
same session saw first (a secret seen once, quoted later in another form). The contexts are
written here, so these are development data only: the held-back half is never wrapped, and
the test never measures this file against the thresholds.
"""
import base64
import hashlib
import json
import os
import random
import re
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))


def jstr(s):
    return json.dumps(s)[1:-1]


def wrap_through(text, secret, width=80):
    """Hard-wraps the line holding the secret as a terminal would, at width columns, with
    the break moved into the secret when it would fall outside it."""
    i = text.find(secret)
    ls = text.rfind("\n", 0, i) + 1
    le = text.find("\n", i)
    le = len(text) if le < 0 else le
    line = text[ls:le]
    cut = i - ls + len(secret) // 2
    if len(line) > width and (i - ls) // width != (i - ls + len(secret)) // width:
        cut = ((i - ls) // width + 1) * width
    pieces = [line[:cut]]
    rest = line[cut:]
    while len(rest) > width:
        pieces.append(rest[:width])
        rest = rest[width:]
    pieces.append(rest)
    return text[:ls] + "\n".join(pieces) + text[le:]


# Each context: (name, applies(secret), build(secret, rnd, example) -> (text, secrets, before)).
def plain_value(s):
    return re.fullmatch(r"[^\s\"'`\\]{8,200}", s) is not None


def url_safe(s):
    return plain_value(s) and not re.search(r"[@/:?#]", s)


CONTEXTS = [
    ("npmrc", plain_value, lambda s, r, e: (
        f"$ cat ~/.npmrc\nregistry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={s}\nalways-auth=true\n", [s], [])),
    ("pypirc", plain_value, lambda s, r, e: (
        f"[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = {s}\n", [s], [])),
    ("netrc", plain_value, lambda s, r, e: (
        f"machine api.{r.choice(['heroku', 'github', 'example'])}.com\n  login deploy@ci\n  password {s}\n", [s], [])),
    ("docker-login", plain_value, lambda s, r, e: (
        f"$ docker login {r.choice(['ghcr.io', 'registry.gitlab.com', 'quay.io'])} -u deploy -p {s}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded\n", [s], [])),
    ("docker-stdin", plain_value, lambda s, r, e: (
        f"echo \"{s}\" | docker login ghcr.io -u deploy --password-stdin", [s], [])),
    ("yaml-file", plain_value, lambda s, r, e: (
        "    1\tproduction:\n    2\t  adapter: postgresql\n    3\t  host: db.internal\n    4\t  username: app\n"
        f"    5\t  {r.choice(['password', 'api_key', 'secret_token', 'clientSecret'])}: {s}\n    6\t  pool: 5\n", [s], [])),
    ("properties-file", plain_value, lambda s, r, e: (
        f"spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.username=app\n"
        f"{r.choice(['spring.datasource.password', 'app.security.jwt-secret', 'mail.smtp.auth.token'])}={s}\n", [s], [])),
    ("env-file", plain_value, lambda s, r, e: (
        f"NODE_ENV=production\nPORT=8080\n{r.choice(['STRIPE_KEY', 'OPENAI_API_KEY', 'DATABASE_PASSWORD', 'SESSION_SECRET', 'AUTH_TOKEN'])}={s}\nLOG_LEVEL=info\n", [s], [])),
    ("diff-hunk", plain_value, lambda s, r, e: (
        "diff --git a/config/settings.py b/config/settings.py\n--- a/config/settings.py\n+++ b/config/settings.py\n"
        f"@@ -10,3 +10,3 @@\n DEBUG = False\n-API_TOKEN = os.environ[\"API_TOKEN\"]\n+API_TOKEN = \"{s}\"\n ALLOWED_HOSTS = [\"*\"]\n", [s], [])),
    ("xml-settings", plain_value, lambda s, r, e: (
        f"<settings>\n  <servers>\n    <server>\n      <id>internal</id>\n      <username>deploy</username>\n      <password>{s}</password>\n    </server>\n  </servers>\n</settings>\n", [s], [])),
    ("cli-flag", plain_value, lambda s, r, e: (
        r.choice([f"mysql -h db.internal -u root -p{s} app < dump.sql",
                  f"PGPASSWORD={s} psql -h db.internal -U app app",
                  f"./deploy.sh --api-key {s} --region eu-west-1",
                  f"sshpass -p '{s}' ssh deploy@10.0.0.5",
                  f"curl -u deploy:{s} https://ci.internal/api/json"]), [s], [])),
    ("url-credentials", url_safe, lambda s, r, e: (
        f"DATABASE_URL=postgres://app:{s}@db.internal:5432/app", [s], [])),
    ("bearer-anywhere", plain_value, lambda s, r, e: (
        r.choice([f"{{\"access_token\": \"{s}\", \"token_type\": \"Bearer\", \"expires_in\": 3600}}",
                  f"> Use this header: Bearer {s}",
                  f"const headers = {{ Authorization: `Bearer {s}` }};"]), [s], [])),
    ("json-tool-argument", lambda s: True, lambda s, r, e: (
        json.dumps({"file_path": "notes/setup.md", "content": e["text"]}), [jstr(x) for x in e["secrets"]], [])),
    ("wrapped-80", lambda s: len(s) >= 16 and "\n" not in s, lambda s, r, e: (
        wrap_through(e["text"], s), [s], [])),
    ("later-base64", lambda s: len(s) >= 10 and "\n" not in s, lambda s, r, e: (
        r.choice([f"$ echo {base64.b64encode(s.encode()).decode()} | base64 -d",
                  f"\"auth\": \"{base64.b64encode(('deploy:' + s).encode()).decode()}\"",
                  f"data:\n  token: {base64.b64encode(s.encode()).decode()}"]),
        [], [e["text"]])),
    ("later-url-encoded", lambda s: len(s) >= 10 and "\n" not in s, lambda s, r, e: (
        f"GET /callback?state=abc&code={urllib.parse.quote(s, safe='')} HTTP/1.1", [urllib.parse.quote(s, safe="")], [e["text"]])),
    ("later-raw", lambda s: len(s) >= 10 and "\n" not in s, lambda s, r, e: (
        f"The deploy failed: token {s} was rejected (401).", [s], [e["text"]])),
]


def later_base64(text):
    """The base64 run of the later event: what must not survive."""
    return re.findall(r"[A-Za-z0-9+/]{12,}={0,2}", text)


def main():
    rows = [json.loads(line) for line in open(os.path.join(HERE, "secrets.jsonl"))]
    out = []
    for e in rows:
        if e["split"] != "dev" or not e["secrets"] or e["class"] not in ("known-format", "keyword-context"):
            continue
        secret = max(e["secrets"], key=len)
        if "\n" in secret or len(secret) < 8:
            continue
        rnd = random.Random(hashlib.sha256(e["id"].encode()).digest())
        usable = [c for c in CONTEXTS if c[1](secret) and (c[0] != "json-tool-argument" or len(e["text"]) < 4000)]
        for name, _, build in rnd.sample(usable, min(3, len(usable))):
            text, secrets, before = build(secret, rnd, e)
            if name == "later-base64":
                secrets = later_base64(text)
            ident = f"agent-contexts:{name}:{e['id']}"
            out.append({"id": ident, "source": "agent-contexts", "split": "dev", "class": e["class"], "label": name,
                        "text": text, "secrets": sorted(set(secrets)), "before": before})
    with open(os.path.join(HERE, "contexts.jsonl"), "w") as f:
        for c in out:
            f.write(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(out)} context events from the development half")


if __name__ == "__main__":
    main()
