import extract, re, sys
from collections import OrderedDict
R, errs = extract.load_all()
SRC = {'detect-secrets':'fromDetectSecrets','credsweeper':'fromCredSweeper','trufflehog':'fromTruffleHog','kingfisher':'fromKingfisher','noseyparker':'fromNoseyParker','secrets-patterns-db':'fromSecretsPatternsDB','ms-security-utilities':'fromSecurityUtilities'}
DENY_ANCHOR = re.compile(r'^(?:\$|ey|ew|https?:|API_KEY|KEY|key$|account-|master-|act_|api-|sdk-|api_$|appid=|cli_|web_|live_$|test_$|lk_|pk_$|pk\.|v2/|twitter|oauth-|stripe|sandbox-|cus_|%3a|==:|rzp_$|secret_$|sk_$)')
keep = OrderedDict()
anchors_all = set()
cands = []
for r in R:
    if extract.good(r): continue
    m = r['segs']; a = r['anchor'][2]
    if 'a-z' in a or 'A-Z' in a or '0-9' in a: continue
    d = extract.dsl(m)
    var = [x for x in m if not extract.lit(x)]
    exact = all(x[1] == x[2] for x in var) and sum(x[1] for x in var) >= 27
    GENERIC = re.compile(r'^(?:live_|test_|api_|pk_|sk_|secret_|api-|sdk-)$')
    if DENY_ANCHOR.search(a) and not (GENERIC.match(a) and (exact or len(var) >= 2)) and not (a.startswith(('ey', '.ey', '.ew')) and len(a) >= 3):
        continue
    if a.startswith(('ey', 'ew')) and len(a) < 5: continue  # a bare ey… run: the JWT rules' part
    if re.match(r'^\{[a-zA-Z]0-', d): continue  # unbounded left part
    if '{d4}-{d2}-{d2}T' in d: continue
    if '{[01]1}.A' in d: continue
    # generic bodies after short generic prefixes

    if re.match(r'^pk_\{a1-300\}', d) or d.startswith('sk_{A1-300}') or d.startswith('sk_{L1-300}'): continue
    if d.startswith('JQQJ') or ('JQQJ99' in d and 'AAAA' in d or re.search(r'JQQJ99\{a1\}\{\[A-L\]1\}\{a12\}AAA', d)): pass
    if '@' in a or re.match(r'^[01]\.A', d) or d.startswith(('https://', 'age1', 'APPID=')) or '{a6}{h30}nral' in d: continue
    if re.match(r'^A[A-Z]{3}\{a16\}$', d): continue  # case-insensitive reading of AWS ids
    cands.append((a, d, r))
# CredSweeper's patterns (the rules in formats.go were written from the same facts) only add
# signatures no other set gives
late = ('credsweeper', 'detect-secrets')
other = {a for a, d, r in cands if r['source'] not in late}
cands = [c for c in cands if c[2]['source'] not in late or c[0] not in other]
# drop lower-case twins of an upper-case anchor from case-insensitive patterns
upp = {a for a, d, r in cands if a != a.lower()}
for a, d, r in cands:
    if a == a.lower() and a.upper() in upp and any(c.isalpha() for c in a):
        continue
    if re.search(r'JQQJ99\{a1\}\{\[ABCDEFGHIJKL\]1\}\{a12\}AAA', d):
        continue  # the unclassified common annotated key format covers every such key
    e = keep.setdefault(d, {'vendors': [], 'src': set()})
    e['vendors'].append(r['vendor']); e.setdefault('srcl', []).append(r['source']); e['src'].add(r['source'])
# a format read case-insensitively (h for x, a for l or u) gives way to its case-sensitive twin
def strict_variants(d):
    out = set()
    for a, b in (('{h', '{x'), ('{a', '{l'), ('{a', '{u'), ('{h', '{X')):
        if a in d: out.add(d.replace(a, b))
    return out
shape = lambda d: re.sub(r'\{([a-zA-Z])\d+(-\d+)?\}', r'{\1}', d)
shapes = {shape(d) for d in keep}
for d in list(keep):
    hexv = {d.replace('{h', '{x')} - {d}
    if any(v in keep and v != d for v in strict_variants(d)) or any(shape(v) in shapes for v in hexv):
        del keep[d]
print(len(keep), file=sys.stderr)
def vname(vs, srcs):
    for v, s in zip(vs, srcs):
        if s != 'trufflehog': return v
    v = vs[0].split('/')[0]
    return v[:1].upper() + v[1:]
out = []
for d, e in sorted(keep.items(), key=lambda kv: kv[0].lower()):
    flags = '|'.join(SRC[s] for s in sorted(e['src']))
    spec = d
    out.append('\t{%s, %s, %s},' % ('"' + vname(e['vendors'], e['srcl']).replace('"','') + '"', '`' + spec + '`', flags))
open('/tmp/fmtx/table.txt','w').write('\n'.join(out) + '\n')
