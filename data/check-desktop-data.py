#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Cross-checks the desktop-integration files that no validator relates to each other (TAP output).
#
# Usage: check-desktop-data.py DESKTOP METAINFO APP-ICON.svg SYMBOLIC-ICON.svg

import configparser
import os
import sys
import xml.etree.ElementTree as ET

SVG_NS = '{http://www.w3.org/2000/svg}'
APP_ID = 'org.latent.Latent'

results = []


def check(name, ok, why=''):
    results.append((name, bool(ok), why))


def parse_svg(path):
    try:
        return ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        check(f'{os.path.basename(path)} parses', False, str(e))
        return None


def check_svg(path, view_box, symbolic):
    name = os.path.basename(path)
    root = parse_svg(path)
    if root is None:
        return
    check(f'{name} parses', True)
    check(f'{name} root is <svg>', root.tag == SVG_NS + 'svg', root.tag)
    got = ' '.join(root.get('viewBox', '').split())
    check(f'{name} viewBox is "{view_box}"', got == view_box, f'got "{got}"')
    if symbolic:
        # GTK recolours only fills of symbolic icons, so strokes or a second colour would stay fixed.
        fills = {e.get('fill').lower() for e in root.iter() if e.get('fill') not in (None, 'none')}
        strokes = [e.tag for e in root.iter() if e.get('stroke') not in (None, 'none')]
        check(f'{name} uses a single fill colour', len(fills) == 1, f'fills {sorted(fills)}')
        check(f'{name} has no strokes', not strokes, f'strokes on {strokes}')
    else:
        # Every fill="url(#x)" and clip-path="url(#x)" must name an element the file defines.
        ids = {e.get('id') for e in root.iter() if e.get('id')}
        refs = set()
        for e in root.iter():
            for attr in ('fill', 'clip-path', 'stroke'):
                v = e.get(attr, '')
                if v.startswith('url(#'):
                    refs.add(v[5:-1])
        check(f'{name} references only defined ids', refs <= ids, f'missing {sorted(refs - ids)}')


def check_desktop_and_metainfo(desktop_path, metainfo_path, icon_paths):
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive in desktop files
    try:
        parser.read(desktop_path, encoding='utf-8')
        entry = parser['Desktop Entry']
    except (configparser.Error, KeyError) as e:
        check('desktop file has a [Desktop Entry] group', False, f'{desktop_path}: {e}')
        return
    check('desktop file has a [Desktop Entry] group', True)
    desktop_id = os.path.basename(desktop_path)
    check('desktop file id is the application id', desktop_id == APP_ID + '.desktop', desktop_id)
    check('desktop Icon= is the application id', entry.get('Icon') == APP_ID, entry.get('Icon'))
    icon_names = {os.path.splitext(os.path.basename(p))[0] for p in icon_paths}
    check('desktop Icon= names a shipped icon', entry.get('Icon') in icon_names,
          f'{entry.get("Icon")} not in {sorted(icon_names)}')
    check('a symbolic icon is shipped for the icon name', APP_ID + '-symbolic' in icon_names,
          f'{sorted(icon_names)}')
    exec_line = entry.get('Exec', '').split()
    check('desktop Exec= starts latent', exec_line[:1] == ['latent'], entry.get('Exec'))

    try:
        component = ET.parse(metainfo_path).getroot()
    except (OSError, ET.ParseError) as e:
        check('metainfo parses', False, f'{metainfo_path}: {e}')
        return
    check('metainfo parses', True)
    check('metainfo id is the application id', component.findtext('id') == APP_ID,
          component.findtext('id'))
    launchables = [(l.get('type'), (l.text or '').strip()) for l in component.findall('launchable')]
    check('metainfo <launchable> names the desktop file id',
          launchables == [('desktop-id', desktop_id)], f'{launchables} vs {desktop_id}')
    binaries = {(b.text or '').strip() for b in component.findall('provides/binary')}
    check('metainfo provides latent and latent-cli', {'latent', 'latent-cli'} <= binaries,
          f'{sorted(binaries)}')
    check('desktop Exec= binary is provided by the metainfo', exec_line[:1] and exec_line[0] in binaries,
          entry.get('Exec'))
    # Untranslated source files keep <name> first; a merge that lost it would leave it empty.
    names = [n.text for n in component.findall('name') if n.get('{http://www.w3.org/XML/1998/namespace}lang') is None]
    check('metainfo has one untranslated <name> equal to the desktop Name=',
          names == [entry.get('Name')], f'{names} vs {entry.get("Name")}')


def main(argv):
    if len(argv) != 5:
        print(f'usage: {argv[0]} DESKTOP METAINFO APP-ICON.svg SYMBOLIC-ICON.svg', file=sys.stderr)
        return 2
    desktop, metainfo, app_icon, symbolic_icon = argv[1:]
    check_svg(app_icon, '0 0 128 128', symbolic=False)
    check_svg(symbolic_icon, '0 0 16 16', symbolic=True)
    check_desktop_and_metainfo(desktop, metainfo, [app_icon, symbolic_icon])

    print(f'1..{len(results)}')
    failed = 0
    for i, (name, ok, why) in enumerate(results, 1):
        print(f'{"ok" if ok else "not ok"} {i} - {name}')
        if not ok:
            failed += 1
            print(f'# {why}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
