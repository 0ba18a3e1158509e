import re, sys, os, json, glob, yaml
import re._parser as sp
import re._constants as sc

MAXR = 300
def charset_of(items, flags):
    s = set()
    neg = False
    for op, av in items:
        if op == sc.NEGATE: neg = True
        elif op == sc.LITERAL: s.add(chr(av))
        elif op == sc.RANGE:
            for c in range(av[0], av[1]+1):
                if c < 128: s.add(chr(c))
        elif op == sc.CATEGORY:
            if av == sc.CATEGORY_DIGIT: s |= set('0123456789')
            elif av == sc.CATEGORY_WORD: s |= set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_')
            else: return None
        else: return None
    if neg: return None
    if flags & re.I:
        s |= {c.upper() for c in s} | {c.lower() for c in s}
    return frozenset(s)

class Bad(Exception): pass

def flat(sub, flags):
    """returns list of alternatives; each alternative a list of segments (alphabet, min, max)"""
    alts = [[]]
    for op, av in sub:
        if op == sc.LITERAL:
            c = chr(av)
            a = frozenset({c})  # a literal is matched as the pattern writes it
            nxt = [[(a,1,1)]]
        elif op == sc.NOT_LITERAL: raise Bad('notlit')
        elif op == sc.IN:
            a = charset_of(av, flags)
            if a is None: raise Bad('in')
            nxt = [[(a,1,1)]]
        elif op == sc.ANY:
            nxt = [[(frozenset({'.'}), 1, 1)]]  # an unescaped dot between parts means a dot
        elif op in (sc.MAX_REPEAT, sc.MIN_REPEAT, getattr(sc,'POSSESSIVE_REPEAT',None)):
            lo, hi, s2 = av
            if hi == sc.MAXREPEAT: hi = MAXR
            inner = flat(s2, flags)
            if len(inner) == 1 and len(inner[0]) == 1 and inner[0][0][1] == inner[0][0][2] == 1:
                a = inner[0][0][0]
                nxt = [[(a, lo, hi)]]
            elif lo == 0 and hi == 1:
                nxt = [[]] + inner
            else:
                al = frozenset().union(*[x[0] for alt in inner for x in alt])
                mn = min(sum(x[1] for x in alt) for alt in inner)
                mx = max(sum(x[2] for x in alt) for alt in inner)
                nxt = [[(al, lo*mn, min(hi*mx, MAXR*2))]]
        elif op == sc.SUBPATTERN:
            gid, addf, delf, s2 = av
            f2 = (flags | addf) & ~delf
            nxt = flat(s2, f2)
        elif op == sc.BRANCH:
            nxt = []
            for b in av[1]:
                nxt += flat(b, flags)
        elif op == sc.AT: continue
        elif op in (sc.ASSERT, sc.ASSERT_NOT): continue
        else: raise Bad(str(op))
        alts = [a + n for a in alts for n in nxt]
        if len(alts) > 64: raise Bad('too many alts')
    return alts

def find_group(sub, want):
    for op, av in sub:
        if op == sc.SUBPATTERN:
            gid = av[0]
            if gid is not None and want(gid):
                return av[3], (av[1])
            r = find_group(av[3], want)
            if r: return r
        elif op == sc.BRANCH:
            for b in av[1]:
                r = find_group(b, want)
                if r: return r
        elif op in (sc.MAX_REPEAT, sc.MIN_REPEAT):
            r = find_group(av[2], want)
            if r: return r
    return None

def secret_sub(pat, flags, prefer_names=('refine','value','secret','key','token','SECRET','TOKEN')):
    p = sp.parse(pat, flags)
    names = p.state.groupdict
    for n in prefer_names:
        if n in names:
            g = names[n]; r = find_group(p, lambda x: x == g)
            if r: return r[0], p.state.flags
    if p.state.groups > 1:
        # last group that is not a keyword alternation: use the last capture group
        r = find_group(p, lambda x: x == p.state.groups - 1)
        # prefer group 1 (trufflehog convention), else last
        r1 = find_group(p, lambda x: x == 1)
        return (r1 or r)[0], p.state.flags
    return list(p), p.state.flags

def segs_to_formats(alts):
    out = []
    for alt in alts:
        # merge literal runs
        segs = []
        for a, lo, hi in alt:
            if lo == 0 and hi == 0: continue
            segs.append([a, lo, hi])
        # merge consecutive equal alphabets
        m = []
        for s in segs:
            if m and m[-1][0] == s[0] and not (len(s[0]) == 1):
                m[-1][1] += s[1]; m[-1][2] += s[2]
            else: m.append(s)
        out.append(m)
    return out

def lit(seg):
    return len(seg[0]) == 1 and seg[1] == seg[2] and seg[1] >= 1

def lit_or_ci(seg):
    return lit(seg)

def anchor_of(m):
    # literal runs (case-sensitive single chars); choose the longest; report (start_idx, end_idx, text)
    best = None; i = 0
    while i < len(m):
        if lit(m[i]):
            j = i; txt = ''
            while j < len(m) and lit(m[j]):
                txt += next(iter(m[j][0])) * m[j][1]; j += 1
            if best is None or len(txt) > len(best[2]) or (i == 0 and len(txt) >= len(best[2])):
                best = (i, j, txt)
            i = j
        else: i += 1
    return best

POSIX = {'alnum': 'a-zA-Z0-9', 'alpha': 'a-zA-Z', 'digit': '0-9', 'xdigit': '0-9a-fA-F', 'upper': 'A-Z', 'lower': 'a-z', 'word': 'a-zA-Z0-9_', 'punct': None, 'space': None}
def posix(pat):
    def rep(m):
        v = POSIX.get(m.group(1))
        if v is None: raise Bad('posix')
        return v
    return re.sub(r'\[:(\w+):\]', rep, pat)

def process(source, vendor, pat, flags=0):
    try:
        pat = posix(pat)
        sub, fl = secret_sub(pat, flags)
        alts = flat(sub, fl)
    except Exception as e:
        return [], str(e)[:40]
    res = []
    for m in segs_to_formats(alts):
        # case-insensitive literal pairs: take the lower/as-written case; treat {x,X} alpha of len1 with both cases as literal lower
        mm = []
        for a, lo, hi in m:
            if len(a) == 2 and lo == hi:
                l = sorted(a)
                if l[0].lower() == l[1].lower() and l[0] != l[1]:
                    a = frozenset({l[1]})  # lower case
            mm.append([a, lo, hi])
        m = mm
        # a one-character part of a few choices next to literals (cf[au]t_, dd[pw]_) is
        # spelled out, so that the whole signature is the anchor
        expanded = [m]
        for idx, (a, lo, hi) in enumerate(m):
            litl = idx > 0 and lit(m[idx-1])
            litr = idx + 1 < len(m) and lit(m[idx+1])
            if lo == hi == 1 and 1 < len(a) <= 4 and litr and (litl or idx == 0):
                expanded = [e[:idx] + [[frozenset({c}), 1, 1]] + e[idx+1:] for e in expanded for c in sorted(a)]
                if len(expanded) > 16: expanded = [m]; break
        for m in expanded:
          an = anchor_of(m)
          if an: res.append(dict(source=source, vendor=vendor, segs=m, anchor=an))
        continue
        an = anchor_of(m)
        if not an: continue
        res.append(dict(source=source, vendor=vendor, segs=m, anchor=an))
    return res, None

def load_all():
    R = []
    errs = {}
    base = os.environ.get('FMTSRC', '/tmp/fmtsrc')
    def yml_rules(path, src):
        try: d = yaml.safe_load(open(path))
        except Exception as e: return
        for r in (d or {}).get('rules', []) or []:
            pat = r.get('pattern')
            if not pat: continue
            pat = pat.strip()
            fl = 0
            # global flags anywhere at top level
            for f, v in (('(?x)', re.X), ('(?i)', re.I), ('(?s)', re.S), ('(?m)', re.M)):
                if f in pat:
                    pat = pat.replace(f, ''); fl |= v
            pat = pat.replace(r'\z', r'\Z').replace('(?-i)','')
            out, e = process(src, r.get('name'), pat, fl)
            if e: errs[src] = errs.get(src, 0) + 1
            R.extend(out)
    for p in sorted(glob.glob(base + '/kf/*.yml')): yml_rules(p, 'kingfisher')
    for p in sorted(glob.glob(base + '/praetorian-inc+noseyparker/crates/noseyparker/data/default/builtin/rules/*.yml')): yml_rules(p, 'noseyparker')
    d = yaml.safe_load(open(base + '/mazen160+secrets-patterns-db/db/rules-stable.yml'))
    for p in d['patterns']:
        p = p['pattern']
        if p.get('confidence') != 'high': continue
        pat = p['regex']; fl = 0
        if '(?i)' in pat: pat = pat.replace('(?i)', ''); fl |= re.I
        out, e = process('secrets-patterns-db', p['name'], pat, fl)
        if e: errs['spdb'] = errs.get('spdb', 0) + 1
        R.extend(out)
    for r in yaml.safe_load(open(base + '/cs/config.yaml')):
        if r.get('type') != 'pattern': continue
        for pat in r.get('values', []):
            try:
                out, e = process('credsweeper', r['name'], pat)
            except Exception as ex:
                out, e = [], str(ex)
            if e: errs['cs'] = errs.get('cs', 0) + 1
            R.extend(out)
    for path in sorted(glob.glob(base + '/ds/*.py')):
        src = open(path).read()
        for mm in re.finditer(r"re\.compile\(\s*r?(['\"])(.*?)\1", src, re.S):
            fl = re.I if 'IGNORECASE' in src[mm.end():mm.end()+80] else 0
            out, e = process('detect-secrets', os.path.basename(path)[:-3], mm.group(2), fl)
            R.extend(out)
    for m in json.load(open(base + '/microsoft+security-utilities/GeneratedRegexPatterns/HighConfidenceSecurityModels.json')):
        pat = m['Pattern'].replace('(?P<refine>', '(?P<refine>')
        out, e = process('ms-security-utilities', m['Name'], pat)
        if e: errs['ms'] = errs.get('ms', 0) + 1
        R.extend(out)
    for path in sorted(glob.glob(base + '/trufflesecurity+trufflehog/pkg/detectors/**/*.go', recursive=True)):
        if path.endswith('_test.go'): continue
        src = open(path).read()
        vendor = os.path.relpath(os.path.dirname(path), base + '/trufflesecurity+trufflehog/pkg/detectors')
        for call in re.finditer(r'regexp\.MustCompile\((.*?)\)\s*\n', src):
            body = call.group(1)
            strs = re.findall(r'`([^`]*)`', body)
            if not strs: continue
            pat = strs[-1]
            fl = 0
            if pat.startswith('(?i)'): pat = pat[4:]; fl = re.I
            pat = pat.replace(r'\z', r'\Z')
            out, e = process('trufflehog', vendor, pat, fl)
            if e: errs['th'] = errs.get('th', 0) + 1
            R.extend(out)
    return R, errs

ALPH = {
 'd': set('0123456789'),
 'x': set('0123456789abcdef'),
 'X': set('0123456789ABCDEF'),
 'h': set('0123456789abcdefABCDEF'),
 'l': set('0123456789abcdefghijklmnopqrstuvwxyz'),
 'u': set('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
 'a': set('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'),
 'w': set('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_'),
 'k': set('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-'),
 'b': set('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/'),
 'B': set('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/='),
 'L': set('abcdefghijklmnopqrstuvwxyz'),
 'U': set('ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
 'A': set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'),
}
def alpha_name(a):
    for k, v in ALPH.items():
        if set(a) == v: return k
    return None

TOK = set('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-+/=.~$!|:%,*#@')
def seg_dsl(s):
    a, lo, hi = s
    if lit(s):
        c = next(iter(a))
        return c * lo
    n = alpha_name(a)
    if n is None:
        n = '[' + ''.join(sorted(a)) + ']'
    r = str(lo) if lo == hi else '%d-%d' % (lo, hi)
    return '{%s%s}' % (n, r)

def dsl(m):
    return ''.join(seg_dsl(s) for s in m)

def good(r):
    m = r['segs']; an = r['anchor']
    txt = an[2]
    if len(txt) < 3 or len(txt) > 64: return 'anchor-len'
    if any(w in txt for w in ('.com', '.net', 'amazonaws', 'correcthorse', '{', 'BEGIN')): return 'anchor-host'
    for a, lo, hi in m:
        if not set(a) <= TOK: return 'alphabet'
        if hi > 1100: return 'long'
    var = [s for s in m if not lit(s)]
    vmin = sum(s[1] for s in var)
    if vmin < 12 and not (vmin >= 8 and len(txt) >= 6 and txt[0].isalpha() and '.' not in txt): return 'short-body'
    if any(c in txt for c in ' "\'<>\\'): return 'anchor-chars'
    # each variable segment with a 1-char alphabet... fine
    # the literal must be within the first 3 segments or a signature of MS
    return None
