"""Build the Material icon fonts the offline icon matcher and the Material-styles tests use:
subsets of Google's Material Symbols styles, holding only the glyphs the matcher's vocabulary names.

    pip download nicegui==3.18.0 --no-deps -d DIR     # MIT wheel that carries the fonts as woff2
    python bench/build_icon_refs.py --wheel DIR/nicegui-3.18.0-py3-none-any.whl

Needs fontTools and brotli (woff2; ``pip install -e .[build-refs]``), at build time only: what it
writes is plain TTF that Pillow reads. The styles are found by their CSS family name in the wheel's ``static/fonts.css``. Each
glyph is looked up by its Material name through the font's GSUB ligatures (``arrow_back`` is the
glyph the letters a-r-r-o-w-_-b-a-c-k turn into), so a name that Material Symbols spells as an alias
(``favorite_border``, ``notifications_none``) finds the glyph Google draws for it. The subset maps
each name to a code point (its own where the font gives one, else one in the private use area),
written beside the font as ``<file>.json``, with a ``<file>.txt`` that records the source wheel,
its version, the SHA-256 of the source and of the output, and the licence.

Writes, by default:
  src/mobile_agent/perception/icons/refs/MaterialSymbolsOutlined-subset.ttf  (the matcher's references)
  src/mobile_agent/screensets/fonts/MaterialSymbols{Rounded,Sharp}-subset.ttf     (drawn by the test set,
      never used as references, so that it measures styles the matcher has not seen)
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFS = ROOT / "src" / "mobile_agent" / "perception" / "icons" / "refs"
SET_FONTS = ROOT / "src" / "mobile_agent" / "screensets" / "fonts"  # drawn by the Material-styles set

# CSS family name -> (output file stem, where it goes, why)
STYLES = {
    "Material Symbols Outlined": ("MaterialSymbolsOutlined-subset", REFS,
                                  "a reference set of the offline icon matcher (style prefix \"ms:\")"),
    "Material Symbols Rounded": ("MaterialSymbolsRounded-subset", SET_FONTS,
                                 "drawn by the Material-styles test screens (mobile_agent.screensets.icon_material); "
                                 "not a reference of the matcher"),
    "Material Symbols Sharp": ("MaterialSymbolsSharp-subset", SET_FONTS,
                               "drawn by the Material-styles test screens (mobile_agent.screensets.icon_material); "
                               "not a reference of the matcher"),
}

LICENCE = """Licence: Apache License 2.0 (Material Symbols / Material Icons, Copyright Google LLC),
https://www.apache.org/licenses/LICENSE-2.0 (github.com/google/material-design-icons). The font is
redistributed as a subset (only the glyphs listed in the .json beside it), otherwise unchanged.
The wheel that carries it (nicegui) is MIT-licensed; the fonts inside keep Google's licence."""

_PUA = 0xF0000  # supplementary private use area: no clash with the fonts' own code points


def material_names() -> list[str]:
    """Every Material name the matcher and the test set use."""
    sys.path.insert(0, str(ROOT / "src"))
    from mobile_agent.perception.icons.offline import MATERIAL_EXTRA
    from mobile_agent.perception.icons.lexicon import MATERIAL_OF

    names = {m.partition("@")[0] for ms in MATERIAL_OF.values() for m in ms} | set(MATERIAL_EXTRA)
    return sorted(names)


def css_fonts(wheel: zipfile.ZipFile) -> dict[str, str]:
    """CSS family name -> woff2 path inside the wheel (the first @font-face of each family)."""
    css_name = next(n for n in wheel.namelist() if n.endswith("static/fonts.css"))
    css = wheel.read(css_name).decode("utf-8")
    out: dict[str, str] = {}
    for block in re.findall(r"@font-face\s*{([^}]*)}", css):
        fam = re.search(r'font-family:\s*"([^"]+)"', block)
        src = re.search(r"url\(([^)]+\.woff2)\)", block)
        if fam and src and fam.group(1) not in out:
            out[fam.group(1)] = css_name.rsplit("/", 1)[0] + "/" + src.group(1)
    return out


def ligatures(font) -> dict[str, str]:
    """Ligature text -> glyph name, from the font's GSUB ligature lookups."""
    rev = {g: chr(cp) for cp, g in font.getBestCmap().items()}
    out: dict[str, str] = {}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for st in lookup.SubTable:
            if lookup.LookupType == 7:
                st = st.ExtSubTable
            if getattr(st, "LookupType", lookup.LookupType) != 4:
                continue
            for first, ligs in st.ligatures.items():
                for lig in ligs:
                    chars = [rev.get(g) for g in [first, *lig.Component]]
                    if None not in chars:
                        out.setdefault("".join(chars), lig.LigGlyph)  # type: ignore[arg-type]
    return out


def build(wheel_path: Path, family: str, names: list[str]) -> list[str]:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    stem, where, why = STYLES[family]
    with zipfile.ZipFile(wheel_path) as wheel:
        member = css_fonts(wheel)[family]
        raw = wheel.read(member)
        version = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        version = re.search(r"^Version: (.+)$", wheel.read(version).decode(), re.M).group(1)  # type: ignore[union-attr]
    font = TTFont(io.BytesIO(raw))
    ligs = ligatures(font)
    own = {}
    for cp, g in font.getBestCmap().items():
        own.setdefault(g, cp)
    glyph_of: dict[str, str] = {}
    missing = []
    for n in names:
        g = ligs.get(n) or (n if n in own else None)
        if g is None:
            missing.append(n)
        else:
            glyph_of[n] = g
    # Keep the glyphs, drop everything else (ligatures, the letters): code points come from the new cmap.
    opts = subset.Options()
    opts.layout_features = []
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.glyph_names = True
    sub = subset.Subsetter(opts)
    sub.populate(glyphs=sorted(set(glyph_of.values())))
    sub.subset(font)
    codepoints: dict[str, int] = {}
    used: set[int] = set()
    for k, n in enumerate(sorted(glyph_of)):
        cp = own.get(glyph_of[n])
        if cp is None or cp in used:
            cp = _PUA + k
        codepoints[n] = cp
        used.add(cp)
    cmap = {cp: glyph_of[n] for n, cp in codepoints.items()}
    for table in font["cmap"].tables:
        table.cmap = {cp: g for cp, g in cmap.items() if cp <= 0xFFFF or table.format == 12}
    if not any(t.format == 12 for t in font["cmap"].tables):
        from fontTools.ttLib.tables._c_m_a_p import cmap_format_12

        t12 = cmap_format_12(12)
        t12.platformID, t12.platEncID, t12.language, t12.cmap = 3, 10, 0, dict(cmap)
        font["cmap"].tables.append(t12)
    font.flavor = None
    font.recalcTimestamp = False  # the same wheel builds the same bytes
    where.mkdir(parents=True, exist_ok=True)
    out = where / f"{stem}.ttf"
    font.save(str(out))
    (where / f"{stem}.json").write_text(json.dumps(codepoints, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    sha_src = hashlib.sha256(raw).hexdigest()
    sha_out = hashlib.sha256(out.read_bytes()).hexdigest()
    (where / f"{stem}.txt").write_text(
        f"{stem}.ttf: Google's {family} (weight 400, unfilled, as the wheel ships it), {why}.\n\n"
        f"Source: the PyPI wheel nicegui {version} ({wheel_path.name}, SHA-256 "
        f"{hashlib.sha256(wheel_path.read_bytes()).hexdigest()}),\nfile {member}\n"
        f"SHA-256 of the source woff2: {sha_src}\n"
        f"SHA-256 of {stem}.ttf:        {sha_out}\n"
        f"Built by bench/build_icon_refs.py (fontTools subset, {len(codepoints)} glyphs, looked up by their\n"
        f"Material names through the font's GSUB ligatures); {stem}.json maps each name to its code point.\n\n"
        f"{LICENCE}\n", encoding="utf-8")
    print(f"{out.relative_to(ROOT)}: {len(codepoints)} glyphs, {out.stat().st_size} bytes"
          + (f"; not in this style: {', '.join(missing)}" if missing else ""))
    return missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", type=Path, required=True, help="nicegui-3.18.0-py3-none-any.whl")
    ap.add_argument("--style", action="append", choices=sorted(STYLES), help="default: all")
    args = ap.parse_args(argv)
    if not args.wheel.is_file():
        print(f"error: no such wheel: {args.wheel}", file=sys.stderr)
        return 2
    names = material_names()
    for fam in args.style or list(STYLES):
        build(args.wheel, fam, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
