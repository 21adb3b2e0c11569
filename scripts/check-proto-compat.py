#!/usr/bin/env python3
"""Checks warmup's protocol subset against an evitaDB checkout's .proto files.

Usage: scripts/check-proto-compat.py UPSTREAM_PROTO_DIR [OURS_DIR]

Every message, field, oneof, enum value, service and method that warmup declares
must exist upstream with the same name, number, type, label and streaming shape.
Things upstream has and warmup omits are fine (wire-safe) and only counted.
Needs protoc on PATH. Exits 1 on the first kind of mismatch, listing all of them.
"""
import os
import re
import subprocess
import sys
import tempfile


def descriptor_text(proto_dir):
    files = sorted(f for f in os.listdir(proto_dir) if f.endswith('.proto'))
    with tempfile.NamedTemporaryFile(suffix='.pb') as out:
        subprocess.run(['protoc', '-I', proto_dir, '--include_imports',
                        '--descriptor_set_out=' + out.name] + files, check=True)
        with open(out.name, 'rb') as f:
            return subprocess.run(
                ['protoc', '--decode=google.protobuf.FileDescriptorSet',
                 'google/protobuf/descriptor.proto'],
                input=f.read(), capture_output=True, check=True).stdout.decode()


def parse_text(text):
    """Parses protobuf text format into nested (key, value) lists."""
    root = []
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.endswith('{'):
            node = []
            stack[-1].append((line[:-1].strip(), node))
            stack.append(node)
        elif line == '}':
            stack.pop()
        else:
            key, _, value = line.partition(':')
            stack[-1].append((key.strip(), value.strip().strip('"')))
    return root


def get(node, key, default=''):
    for k, v in node:
        if k == key:
            return v
    return default


def all_of(node, key):
    return [v for k, v in node if k == key]


def collect(fds):
    """Flattens a descriptor set into {qualified element name: signature}."""
    items = {}
    for f in all_of(fds, 'file'):
        pkg = get(f, 'package')

        def walk_message(m, prefix):
            name = prefix + '.' + get(m, 'name')
            items['message ' + name] = ''
            oneofs = [get(o, 'name') for o in all_of(m, 'oneof_decl')]
            for fld in all_of(m, 'field'):
                idx = get(fld, 'oneof_index', None)
                sig = '%s %s %s %s oneof=%s proto3_optional=%s' % (
                    get(fld, 'number'), get(fld, 'label'), get(fld, 'type'),
                    get(fld, 'type_name'),
                    oneofs[int(idx)] if idx is not None else '-',
                    get(fld, 'proto3_optional', 'false'))
                items['field %s.%s' % (name, get(fld, 'name'))] = sig
            for nested in all_of(m, 'nested_type'):
                walk_message(nested, name)
            for e in all_of(m, 'enum_type'):
                walk_enum(e, name)

        def walk_enum(e, prefix):
            name = prefix + '.' + get(e, 'name')
            items['enum ' + name] = ''
            for v in all_of(e, 'value'):
                items['enum-value %s.%s' % (name, get(v, 'name'))] = get(v, 'number')

        for m in all_of(f, 'message_type'):
            walk_message(m, pkg)
        for e in all_of(f, 'enum_type'):
            walk_enum(e, pkg)
        for s in all_of(f, 'service'):
            sname = pkg + '.' + get(s, 'name')
            for meth in all_of(s, 'method'):
                items['rpc %s/%s' % (sname, get(meth, 'name'))] = '%s -> %s%s%s' % (
                    get(meth, 'input_type'), get(meth, 'output_type'),
                    ' client-stream' if get(meth, 'client_streaming') == 'true' else '',
                    ' server-stream' if get(meth, 'server_streaming') == 'true' else '')
    return items


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    upstream_dir = sys.argv[1]
    ours_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(__file__), '..', 'libwarmup', 'proto')
    theirs = collect(parse_text(descriptor_text(upstream_dir)))
    ours = collect(parse_text(descriptor_text(ours_dir)))
    problems = []
    for key, sig in sorted(ours.items()):
        if key.split(' ')[1].startswith('.google.') or ' google.' in key:
            continue
        if key not in theirs:
            problems.append('only in warmup: ' + key)
        elif theirs[key] != sig:
            problems.append('differs: %s\n    warmup:   %s\n    upstream: %s' % (key, sig, theirs[key]))
    kinds = {}
    for key in ours:
        kinds[key.split(' ')[0]] = kinds.get(key.split(' ')[0], 0) + 1
    print('checked: ' + ', '.join('%d %s' % (n, k) for k, n in sorted(kinds.items())))
    print('upstream elements warmup omits: %d' % len(set(theirs) - set(ours)))
    for p in problems:
        print(p)
    print('%d mismatches' % len(problems))
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
