#!/usr/bin/env python3
"""Converts the transparency-dev Merkle library's RFC 6962 test vectors into
fixtures/merkle/vectors.txt (the format its header describes), for
tests/base/merkle_test.cc. Run against a checkout of
https://github.com/transparency-dev/merkle:

    python3 scripts/merkle_vectors.py PATH/TO/merkle > fixtures/merkle/vectors.txt

It reads testdata/inclusion and testdata/consistency (JSON, base64) and the
leaf inputs and roots of testonly/constants.go; nothing else."""
import base64
import json
import pathlib
import re
import subprocess
import sys

repo = pathlib.Path(sys.argv[1])
commit = subprocess.check_output(['git', '-C', str(repo), 'rev-parse', 'HEAD']).decode().strip()


def show(path):
    return subprocess.check_output(['git', '-C', str(repo), 'show', 'HEAD:' + path])


def h(b64):
    return base64.b64decode(b64).hex() if b64 else '-'


def hl(lst):
    return ','.join(h(x) if x else 'x' for x in lst) if lst else '-'


files = subprocess.check_output(['git', '-C', str(repo), 'ls-tree', '-r', '--name-only', 'HEAD',
                                 'testdata/inclusion', 'testdata/consistency']).decode().split()
lines = []
go = show('testonly/constants.go').decode()
for func, kind in (('LeafInputs', 'leaf'), ('RootHashes', 'root')):
    body = re.search(r'func ' + func + r'\(\)[^{]*\{(.*?)\n\}', go, re.S).group(1)
    values = re.findall(r'hd\("([0-9a-f]*)"\)', body)
    if kind == 'root':
        values = ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'] + values  # EmptyRootHash()
    for i, v in enumerate(values):
        lines.append(f'{kind} {i} {v or "-"}')
for f in sorted(files):
    d = json.loads(show(f))
    name = f[len('testdata/'):-len('.json')]
    want = 'fail' if d['wantErr'] else 'pass'
    if f.startswith('testdata/inclusion'):
        lines.append(' '.join(['inclusion', name, str(d['leafIdx']), str(d['treeSize']), h(d['root']),
                               h(d['leafHash']), hl(d['proof']), want]))
    else:
        lines.append(' '.join(['consistency', name, str(d['size1']), str(d['size2']), h(d['root1']),
                               h(d['root2']), hl(d['proof']), want]))
print(f"""# RFC 6962 / RFC 9162 Merkle tree test vectors, from the transparency-dev
# Merkle library (https://github.com/transparency-dev/merkle, commit
# {commit}; testdata/ and testonly/constants.go), Apache License 2.0
# (fixtures/merkle/README.md). Made by scripts/merkle_vectors.py: base64 to
# hex; "-" is an empty or null value; a proof is its hashes joined by commas,
# an empty hash in it written "x". One a line, of eight fields where a proof:
#   leaf INDEX INPUT                  the eight leaf inputs (hex)
#   root SIZE ROOT                    the root of the first SIZE of them
#   inclusion NAME LEAF_INDEX TREE_SIZE ROOT LEAF_HASH PROOF pass|fail
#   consistency NAME SIZE1 SIZE2 ROOT1 ROOT2 PROOF pass|fail""")
print('\n'.join(lines))
