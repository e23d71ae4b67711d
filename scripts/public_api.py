#!/usr/bin/env python3
"""The public API of the `agent-test` facade, one line per item, from rustdoc's JSON.

usage: python3 scripts/public_api.py            # print the listing
       python3 scripts/public_api.py --check    # compare with docs/public-api.txt (exit 1)
       python3 scripts/public_api.py --write    # rewrite docs/public-api.txt

Builds the rustdoc JSON of the facade and of the crates below it — runtime, network, readers,
core — (all features, the stable toolchain with RUSTC_BOOTSTRAP=1: the JSON output is still
unstable), then walks the facade from its root as a user reaches it: each public module, each
re-export followed into the runtime and from there into the crate that defines it (the macro
crate's macros are listed by name), and for every struct, enum, union and trait its public
fields, variants, inherent methods and associated items. Trait implementations are not listed
(a derive is not a decision about the surface). Items hidden from the documentation
(`#[doc(hidden)]`: `__private`, what `agent_test!` expands to, what the core shares with the
runtime) are left out, as rustdoc leaves them out: they are not an API.

The surface changes only by decision: CI runs `--check`, which prints what was added and
removed; `--write` records the decision.
"""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
LISTING = ROOT / "docs" / "public-api.txt"
FORMAT = 57  # rustdoc's JSON format of the toolchain CI uses


def rustdoc_json(package, crate):
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    subprocess.run(
        ["cargo", "rustdoc", "-q", "-p", package, "--lib", "--all-features", "--locked", "--",
         "-Z", "unstable-options", "--output-format", "json", "--document-hidden-items"],
        cwd=ROOT, env=env, check=True)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    doc = json.loads((target / "doc" / f"{crate}.json").read_text())
    if doc["format_version"] != FORMAT:
        sys.exit(f"rustdoc JSON format {doc['format_version']}, this script reads {FORMAT}")
    return doc


class Crate:
    def __init__(self, doc):
        self.doc = doc
        self.index = doc["index"]
        # The crate's own items by path, for re-exports from another crate.
        self.by_path = {tuple(p["path"]): i for i, p in doc["paths"].items() if p["crate_id"] == 0}

    def item(self, id_):
        return self.index.get(str(id_))


def hidden(item):
    """Whether the item is `#[doc(hidden)]`: not an API. The JSON has hidden items (so that a
    public re-export of an item in a hidden module resolves), and the walk leaves them out."""
    return any(a == {"other": "#[doc(hidden)]"} for a in item.get("attrs", []))


def kind_of(item):
    return next(iter(item["inner"]))


def signature(item):
    """A function's inputs and output, as names and types rustdoc spells."""
    f = item["inner"]["function"]["sig"]
    args = ", ".join(name for name, _ in f["inputs"])
    return f"({args})" + (" -> …" if f["output"] is not None else "")


class Walk:
    def __init__(self, crates):
        # By crate name, as rustdoc's paths start.
        self.crates = crates
        self.lines = set()
        self.seen = set()

    def add(self, line):
        self.lines.add(line)

    def resolve(self, crate, use):
        """The item a `use` names: in the same crate, or another of ours by path."""
        target = use.get("id")
        if target is not None and crate.item(target) is not None:
            return crate, crate.item(target)
        path = crate.doc["paths"].get(str(target), {}).get("path")
        if path and path[0] in self.crates:
            owner = self.crates[path[0]]
            id_ = owner.by_path.get(tuple(path))
            if id_ is not None and owner.item(id_) is not None:
                return owner, owner.item(id_)
            # A re-export of a re-export: follow that crate's own module tree.
            return owner, self.find(owner, path[1:])
        return None, None

    def find(self, crate, path):
        node = crate.item(crate.doc["root"])
        for name in path:
            found = None
            for i in node["inner"]["module"]["items"]:
                it = crate.item(i)
                if it is None:
                    continue
                if kind_of(it) == "use" and it["inner"]["use"]["name"] == name:
                    _, found = self.resolve(crate, it["inner"]["use"])
                elif it.get("name") == name:
                    found = it
                if found is not None:
                    break
            if found is None:
                return None
            node = found
        return node

    def module(self, crate, item, prefix):
        # The prelude last: its names are the items of the modules, whose members are listed
        # where they live.
        items = sorted(item["inner"]["module"]["items"],
                       key=lambda i: (crate.item(i) or {}).get("name") == "prelude")
        for i in items:
            it = crate.item(i)
            if it is None or it.get("visibility") != "public" or hidden(it):
                continue
            kind = kind_of(it)
            if kind == "use":
                use = it["inner"]["use"]
                owner, target = self.resolve(crate, use)
                if target is None:
                    # An external crate's item (serde_json, a macro crate's macro).
                    self.add(f"pub use {prefix}::{use['name']} = {use['source']}")
                    continue
                # A hidden item re-exported by name is still hidden; a glob of a hidden module
                # (the prelude's builders) makes its items public.
                if hidden(target) and not use["is_glob"]:
                    continue
                if use["is_glob"]:
                    self.module(owner, target, prefix)
                elif use["name"] == "_":
                    # A trait imported for its methods only (`pub use Trait as _;`): no name.
                    self.add(f"pub use {prefix}::{{{target.get('name')} as _}}")
                else:
                    self.item(owner, target, f"{prefix}::{use['name']}")
            else:
                self.item(crate, it, f"{prefix}::{it['name']}")

    def item(self, crate, it, path):
        kind = kind_of(it)
        # An item reached again by another path (the prelude, a re-export) is listed at that
        # path too, its members once, at the first.
        first = (id(crate), it.get("id")) not in self.seen
        self.seen.add((id(crate), it.get("id")))
        if not first and kind != "module":
            if kind == "function":
                self.add(f"pub fn {path}{signature(it)}")
            else:
                self.add(f"pub {kind} {path}")
            return
        if kind == "module":
            self.add(f"pub mod {path}")
            self.module(crate, it, path)
        elif kind == "function":
            self.add(f"pub fn {path}{signature(it)}")
        elif kind in ("struct", "enum", "union", "trait"):
            self.add(f"pub {kind} {path}")
            self.members(crate, it, path, kind)
        else:
            self.add(f"pub {kind} {path}")

    def members(self, crate, it, path, kind):
        inner = it["inner"][kind]
        if kind == "struct":
            shape = inner["kind"]
            fields = (shape.get("plain", {}).get("fields", []) if isinstance(shape, dict) else [])
            if isinstance(shape, dict) and "tuple" in shape:
                fields = [f for f in shape["tuple"] if f is not None]
            for f in fields:
                fi = crate.item(f)
                if fi and fi.get("visibility") == "public" and not hidden(fi):
                    self.add(f"pub field {path}.{fi['name']}")
        if kind == "enum":
            for v in inner["variants"]:
                vi = crate.item(v)
                if vi and not hidden(vi):
                    self.add(f"variant {path}::{vi['name']}")
        if kind == "trait":
            for m in inner["items"]:
                mi = crate.item(m)
                if mi and not hidden(mi):
                    self.member(mi, path)
            return
        for impl_id in inner.get("impls", []):
            impl = crate.item(impl_id)
            if impl is None:
                continue
            body = impl["inner"]["impl"]
            if body["trait"] is not None or body.get("is_synthetic") or body.get("blanket_impl"):
                continue
            for m in body["items"]:
                mi = crate.item(m)
                if mi and mi.get("visibility") == "public" and not hidden(mi):
                    self.member(mi, path)

    def member(self, mi, path):
        kind = kind_of(mi)
        if kind == "function":
            self.add(f"pub fn {path}::{mi['name']}{signature(mi)}")
        else:
            self.add(f"pub {kind} {path}::{mi['name']}")


def listing():
    facade = Crate(rustdoc_json("agent-test", "agent_test"))
    runtime = Crate(rustdoc_json("agent-test-runtime", "agent_test_runtime"))
    core = Crate(rustdoc_json("agent-test-core", "agent_test_core"))
    readers = Crate(rustdoc_json("agent-test-readers", "agent_test_readers"))
    network = Crate(rustdoc_json("agent-test-network", "agent_test_network"))
    walk = Walk({"agent_test_runtime": runtime, "agent_test_core": core,
                 "agent_test_readers": readers, "agent_test_network": network})
    walk.module(facade, facade.item(facade.doc["root"]), "agent_test")
    return sorted(walk.lines)


def main():
    lines = listing()
    text = "".join(line + "\n" for line in lines)
    if "--write" in sys.argv:
        LISTING.write_text(text)
        print(f"{LISTING.relative_to(ROOT)}: {len(lines)} lines")
    elif "--check" in sys.argv:
        kept = LISTING.read_text().splitlines() if LISTING.exists() else []
        added = sorted(set(lines) - set(kept))
        removed = sorted(set(kept) - set(lines))
        for line in removed:
            print(f"- {line}")
        for line in added:
            print(f"+ {line}")
        if added or removed:
            print(f"the public API changed ({len(added)} added, {len(removed)} removed): if on "
                  f"purpose, `python3 scripts/public_api.py --write` and commit "
                  f"{LISTING.relative_to(ROOT)}", file=sys.stderr)
            sys.exit(1)
        print(f"public API: {len(lines)} lines, as {LISTING.relative_to(ROOT)} records")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
