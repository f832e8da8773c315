#!/usr/bin/env python3
"""Prints the test vectors of StrictJSON, computed independently of the Swift code.

Usage: python3 scripts/jcs_vectors.py > Tests/StrictJSONTests/vectors.json

- "canonical": JSON texts, their RFC 8785 (JCS) canonical form and its SHA-256.
  The canonical form is json.dumps(ensure_ascii=False, separators=(',', ':')) with keys
  sorted by UTF-16 code units (RFC 8785 3.2.3; sort_keys=True would sort by code point)
  and numbers written by ecma() below; integers stay exact, as Python's json keeps them.
- "numbers": doubles (as IEEE 754 bit patterns) and ECMAScript's Number::toString of them.

ecma() finds the shortest round-trip digits by trying precisions 1..17 with correctly
rounded '%.{p}e' formatting, a different route from Swift's Double.description.
"""
import hashlib
import json
import math
import random
import struct


def shortest_digits(x):
    """(digits, n) with x == 0.digits * 10**n, digits the shortest that round-trip."""
    for precision in range(1, 18):
        text = '%.*e' % (precision - 1, x)
        if float(text) == x:
            break
    mantissa, exponent = text.split('e')
    digits = mantissa.replace('.', '').rstrip('0')
    return digits, int(exponent) + 1


def ecma(x):
    """ECMAScript Number::toString, ECMA-262 section 7.1.12.1 (Number.prototype.toString)."""
    if math.isnan(x) or math.isinf(x):
        raise ValueError('not representable in JSON')
    if x == 0:
        return '0'
    if x < 0:
        return '-' + ecma(-x)
    digits, n = shortest_digits(x)
    k = len(digits)
    if k <= n <= 21:
        return digits + '0' * (n - k)
    if 0 < n <= 21:
        return digits[:n] + '.' + digits[n:]
    if -6 < n <= 0:
        return '0.' + '0' * -n + digits
    e = n - 1
    exponent = ('+' if e >= 0 else '-') + str(abs(e))
    if k == 1:
        return digits + 'e' + exponent
    return digits[0] + '.' + digits[1:] + 'e' + exponent


def jcs(value):
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return ecma(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return '[' + ','.join(jcs(v) for v in value) + ']'
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: k.encode('utf-16-be'))
        return '{' + ','.join(json.dumps(k, ensure_ascii=False) + ':' + jcs(value[k]) for k in keys) + '}'
    raise TypeError(type(value))


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)


CANONICAL_INPUTS = [
    ('non-ASCII text', r'{"name":"Inès Élodie","city":"中文 北京","emoji":"\ud83d\ude00","raw":"😀","escaped":"\u00e9\u4e2d"}'),
    ('all escapes', r'{"s":"quote\" backslash\\ slash\/ b\b f\f n\n r\r t\t"}'),
    ('control characters and DEL', r'{"c":"\u0001\u001f\u0000\u000b\u001B","del":"\u007f","raw del":"x' + '\x7f' + r'y","u2028":"\u2028"}'),
    ('keys needing sorting', r'{"b":1,"a":2,"A":3,"aa":4,"":5,"é":6,"z":7,"_":8,"10":9,"9":10}'),
    ('UTF-16 key order differs from code point order', r'{"\ue000":1,"\ud83d\ude00":2,"\u00e9":3,"a":4,"\uffff":5}'),
    ('nested objects', r'{"z":{"y":{"x":[{"b":true,"a":false}]},"a":null},"a":{"d":[],"c":{}}}'),
    ('floats', r'[48.137154,-122.4194,0.1,1e-7,1e21,1.5e21,1e-6,0.000001234,123456789012345680000,1.2345678901234568e20,-0.0,5e-324,1.7976931348623157e308,100.0,1E2,2.5e-3,-1e-7,333333333.33333325,9007199254740993.0,4.35,0.3]'),
    ('integers', r'[0,-0,1,-1,100,9007199254740993,9223372036854775807,-9223372036854775808]'),
    ('booleans and null', r'{"t":true,"f":false,"n":null}'),
    ('white space everywhere', ' \t\r\n{ "b" : [ 1 , 2 ] ,\n\t"a" : { } }\r\n '),
    ('empty containers', r'[{},[],[[]],{"a":{}}]'),
    ('a string value', r'"just a string"'),
    ('an event', r'{"type":"scan.recorded","at":"2026-11-03T09:14:05Z","actor":"ines","data":{"scanId":"s-0001","code":"https://x.example/q?a=1&b=2","productName":"Crème fraîche 😀","category":"dairy","result":"authentic","mode":"single","source":"camera","flash":false,"notes":"line1\nline2\ttab"},"seq":12,"id":"0d4c1a8e-6f5b-4b1e-9a39-2d7f0c0e9b11"}'),
    ('an account with geo', r'{"type":"account.registered","at":"2026-11-03T09:14:05.25Z","actor":"system","data":{"username":"admin","role":"admin","name":"Ada","email":"ada@example.org","geo":{"lng":-122.4194,"lat":48.137154},"address":{"zipcode":"80331","city":"München","street":"Marienplatz 1"}}}'),
]


def canonical_vectors():
    out = []
    for name, text in CANONICAL_INPUTS:
        canonical = jcs(json.loads(text, object_pairs_hook=no_duplicates))
        out.append({
            'name': name,
            'input': text,
            'canonical': canonical,
            'sha256': hashlib.sha256(canonical.encode('utf-8')).hexdigest(),
        })
    return out


# RFC 8785 Appendix B: IEEE 754 bit patterns and their serialisation.
RFC8785_NUMBERS = [
    ('0000000000000000', '0'),
    ('8000000000000000', '0'),
    ('0000000000000001', '5e-324'),
    ('8000000000000001', '-5e-324'),
    ('7fefffffffffffff', '1.7976931348623157e+308'),
    ('ffefffffffffffff', '-1.7976931348623157e+308'),
    ('4340000000000000', '9007199254740992'),
    ('c340000000000000', '-9007199254740992'),
    ('4430000000000000', '295147905179352830000'),
    ('44b52d02c7e14af5', '9.999999999999997e+22'),
    ('44b52d02c7e14af6', '1e+23'),
    ('44b52d02c7e14af7', '1.0000000000000001e+23'),
    ('444b1ae4d6e2ef4e', '999999999999999700000'),
    ('444b1ae4d6e2ef4f', '999999999999999900000'),
    ('444b1ae4d6e2ef50', '1e+21'),
    ('3eb0c6f7a0b5ed8c', '9.999999999999997e-7'),
    ('3eb0c6f7a0b5ed8d', '0.000001'),
    ('41b3de4355555553', '333333333.3333332'),
    ('41b3de4355555554', '333333333.33333325'),
    ('41b3de4355555555', '333333333.3333333'),
    ('41b3de4355555556', '333333333.3333334'),
    ('41b3de4355555557', '333333333.33333343'),
    ('becbf647612f3696', '-0.0000033333333333333333'),
    ('43143ff3c1cb0959', '1424953923781206.2'),
]


def bits(x):
    return struct.pack('>d', x).hex()


def from_bits(h):
    return struct.unpack('>d', bytes.fromhex(h))[0]


def number_vectors():
    out = []
    for h, expected in RFC8785_NUMBERS:
        assert ecma(from_bits(h)) == expected, (h, ecma(from_bits(h)), expected)
        out.append({'bits': h, 'expected': expected})
    chosen = [48.137154, -122.4194, 0.1, 0.2 + 0.1, 1e-7, 1e21, 1e-6, 48.0, -0.0,
              123456789012345680000.0, 1.5e21, 2.0 ** 53, 2.0 ** 60, 1e16, 1e15, 1e-5]
    for x in (1e-7, 1e-6, 1e20, 1e21, 1e16, 1.0):   # both sides of every layout boundary
        chosen += [math.nextafter(x, 0), math.nextafter(x, math.inf)]
    rng = random.Random(8785)
    while len(chosen) < 1200:
        kind = len(chosen) % 3
        if kind == 0:      # any finite double
            x = from_bits('%016x' % rng.getrandbits(64))
            if math.isnan(x) or math.isinf(x):
                continue
        elif kind == 1:    # coordinates and amounts as people write them
            x = round(rng.uniform(-180, 180), rng.randint(0, 7))
        else:              # across the magnitudes where the layout changes
            x = rng.uniform(1, 10) * 10.0 ** rng.randint(-30, 30)
        chosen.append(x)
    for x in chosen:
        out.append({'bits': bits(x), 'expected': ecma(x)})
    return out


if __name__ == '__main__':
    vectors = {'canonical': canonical_vectors(), 'numbers': number_vectors()}
    print(json.dumps(vectors, ensure_ascii=False, indent=1))
