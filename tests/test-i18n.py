#!/usr/bin/python3
# test-i18n.py — the German catalogue covers every marked string, and the build's catalogue works.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-i18n.py BUILD_DIR
#
# Regenerates the template from today's sources (the same xgettext options as
# Meson's glib preset), so a string marked without a translation fails here
# rather than showing up in English on a German desktop. Exits 77 (skip) when
# the gettext tools are not installed.

import gettext
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRCDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PODIR = os.path.join(SRCDIR, 'po')
DOMAIN = 'latent'
LANG = 'de'

# Meson's i18n.gettext(preset: 'glib'), mesonbuild/modules/i18n.py.
XGETTEXT_ARGS = [
    '--from-code=UTF-8', '--add-comments',
    '--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3', '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format', '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format', '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format', '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format', '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format', '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format', '--flag=g_printerr:1:c-format', '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format', '--flag=g_sprintf:2:c-format', '--flag=g_snprintf:3:c-format',
]

# Where marked strings live; tests and build trees are not translated.
SCANNED_DIRS = ('app', 'engine', 'ui', 'data')
C_MARK = re.compile(r'\b(?:_|N_|C_|NC_|ngettext|g_dngettext|g_dcgettext|g_dpgettext2)\s*\(\s*'
                    r'(?:GETTEXT_PACKAGE\s*,\s*)?"')
UI_MARK = re.compile(r'translatable\s*=\s*"(?:yes|true|1)"')
PRINTF = re.compile(r'%(?:\d+\$)?[-+ #0\']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?'
                    r'[diouxXeEfFgGaAcspn%]')

results = []


def check(name, ok, why=''):
    results.append((name, bool(ok), why))
    return bool(ok)


def run(*args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def skip(reason):
    print(f'1..0 # SKIP {reason}')
    sys.exit(77)


# ---- a small PO reader: enough for xgettext's and msgcat's output --------------

def unquote(text):
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f'not a quoted string: {text}')
    escapes = {'n': '\n', 't': '\t', '"': '"', '\\': '\\', 'r': '\r'}
    return re.sub(r'\\(.)', lambda m: escapes.get(m.group(1), m.group(0)), text[1:-1])


def read_po(path):
    """Entries as dicts: msgid, msgid_plural, msgstr (list), flags, obsolete, line."""
    entries = []
    entry = None
    key = None

    def finish():
        if entry is not None and 'msgid' in entry:
            entries.append(entry)

    with open(path, encoding='utf-8') as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            obsolete = line.startswith('#~')
            if obsolete:
                line = line[2:].lstrip()
            if not line.strip():
                finish()
                entry, key = None, None
                continue
            if entry is None:
                entry = {'flags': set(), 'msgstr': [], 'obsolete': False, 'line': number}
            if line.startswith('#'):
                if line.startswith('#,'):
                    entry['flags'].update(flag.strip() for flag in line[2:].split(','))
                continue
            entry['obsolete'] = entry['obsolete'] or obsolete
            m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$', line)
            if m:
                key = m.group(1)
                value = unquote(m.group(3))
                if key == 'msgstr':
                    entry['msgstr'].append(value)
                else:
                    entry[key] = value
            elif line.startswith('"') and key:
                if key == 'msgstr':
                    entry['msgstr'][-1] += unquote(line)
                else:
                    entry[key] += unquote(line)
            else:
                raise ValueError(f'{path}:{number}: cannot read “{line}”')
    finish()
    return entries


def key_of(entry):
    return (entry.get('msgctxt'), entry['msgid'])


# ---- the checks ---------------------------------------------------------------

def check_potfiles():
    """Every file with marked strings is in po/POTFILES, and every listed file exists."""
    with open(os.path.join(PODIR, 'POTFILES'), encoding='utf-8') as f:
        listed = [l.strip() for l in f if l.strip() and not l.lstrip().startswith('#')]
    missing_files = [p for p in listed if not os.path.isfile(os.path.join(SRCDIR, p))]
    check('every file in po/POTFILES exists', not missing_files, ', '.join(missing_files))

    marked = []
    for top in SCANNED_DIRS:
        for root, dirs, files in os.walk(os.path.join(SRCDIR, top)):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, SRCDIR)
                if name.endswith(('.c', '.h')):
                    pattern = C_MARK
                elif name.endswith('.ui'):
                    pattern = UI_MARK
                elif name.endswith(('.desktop.in', '.metainfo.xml.in', '.gschema.xml')):
                    pattern = None
                else:
                    continue
                with open(path, encoding='utf-8', errors='replace') as f:
                    text = f.read()
                if pattern is None or pattern.search(text):
                    marked.append(rel)
    unlisted = [p for p in marked if p not in listed]
    check('every file with translatable strings is in po/POTFILES', not unlisted,
          'add to po/POTFILES: ' + ', '.join(unlisted))
    return listed


def make_template(tmp, listed):
    files_from = os.path.join(tmp, 'POTFILES')
    with open(files_from, 'w', encoding='utf-8') as f:
        f.write('\n'.join(listed) + '\n')
    pot = os.path.join(tmp, DOMAIN + '.pot')
    p = run('xgettext', '--package-name=' + DOMAIN, '--directory=' + SRCDIR,
            '--files-from=' + files_from, '--output=' + pot, *XGETTEXT_ARGS)
    check('xgettext extracts the template', p.returncode == 0 and os.path.isfile(pot), p.stderr)
    # A macro inside a marked literal (G_GINT64_FORMAT …) cuts the msgid short:
    # xgettext warns, and the catalogue would never match at run time.
    cut = [l for l in p.stderr.splitlines() if 'ends in the middle of a directive' in l]
    check('no marked string is cut short by a format macro', not cut, '\n'.join(cut))
    return pot


def check_catalogue(po, pot, tmp):
    template = [e for e in read_po(pot) if e['msgid']]
    catalogue = {key_of(e): e for e in read_po(po) if not e['obsolete']}
    check('the template has strings', len(template) > 50, f'{len(template)} strings')

    untranslated = []
    for e in template:
        t = catalogue.get(key_of(e))
        if t is None or 'fuzzy' in t['flags'] or not t['msgstr'] or not all(t['msgstr']):
            untranslated.append(e['msgid'])
    check(f'po/{LANG}.po translates every string of the template', not untranslated,
          f'{len(untranslated)} missing; run `ninja -C BUILD {DOMAIN}-update-po` and translate:\n' +
          '\n'.join(f'  “{m}”' for m in untranslated))

    p = run('msgcmp', po, pot)
    check(f'msgcmp po/{LANG}.po against the fresh template', p.returncode == 0, p.stderr)

    p = run('msgfmt', '--check', '--statistics', '-o', os.devnull, po)
    stats = p.stderr.strip()
    check(f'msgfmt --check po/{LANG}.po', p.returncode == 0, stats)
    check(f'po/{LANG}.po has no fuzzy or untranslated entries',
          'fuzzy' not in stats and 'untranslated' not in stats, stats)

    merged = os.path.join(tmp, LANG + '.po')
    p = run('msgmerge', '--quiet', '--no-fuzzy-matching', '-o', merged, po, pot)
    check('msgmerge with the fresh template', p.returncode == 0, p.stderr)
    p = run('msgfmt', '--check', '--statistics', '-o', os.devnull, merged)
    stats = p.stderr.strip()
    check('the merged catalogue compiles, complete', p.returncode == 0 and 'fuzzy' not in stats
          and 'untranslated' not in stats, stats)

    header = catalogue.get((None, ''), {'msgstr': ['']})['msgstr'][0]
    headers = dict(l.split(': ', 1) for l in header.splitlines() if ': ' in l)
    check('header: Language is de', headers.get('Language') == LANG, str(headers.get('Language')))
    check('header: UTF-8', 'charset=UTF-8' in headers.get('Content-Type', ''), headers.get('Content-Type', ''))
    check('header: German plural forms', headers.get('Plural-Forms', '').replace(' ', '') ==
          'nplurals=2;plural=(n!=1);', headers.get('Plural-Forms', ''))
    return [catalogue[key_of(e)] for e in template if key_of(e) in catalogue]


def is_mnemonic(msgid):
    # One underscore inside a word: “_Open”, “Copy to C_lipboard”; not LATENT_OPENCL.
    return msgid.count('_') == 1 and not re.search(r'[A-Z0-9]_[A-Z0-9]', msgid) \
        and re.search(r'(?:^|\w|\s)_\w', msgid) is not None


def check_style(entries):
    """What msgfmt does not check: mnemonics, ellipses, spacing, quotes, directives."""
    problems = []
    for e in entries:
        msgid = e['msgid']
        forms = [msgid, e.get('msgid_plural', msgid)]
        for i, msgstr in enumerate(e['msgstr']):
            source = forms[min(i, 1)]
            where = f'“{msgid}” → “{msgstr}”'
            if is_mnemonic(source) and not (msgstr.count('_') == 1 and re.search(r'_\w', msgstr)):
                problems.append(f'{where}: keep exactly one mnemonic underscore')
            if source.endswith('…') != msgstr.endswith('…'):
                problems.append(f'{where}: keep the trailing “…”')
            for edge, test in (('leading space', str.startswith), ('trailing space', str.endswith)):
                if test(source, ' ') != test(msgstr, ' '):
                    problems.append(f'{where}: keep the {edge}')
            if source.endswith('\n') != msgstr.endswith('\n'):
                problems.append(f'{where}: keep the trailing line break')
            if '”' in msgstr or msgstr.count('„') != msgstr.count('“'):
                problems.append(f'{where}: German quotes are „…“')
            if '%' in source and 'c-format' not in e['flags']:
                if sorted(PRINTF.findall(source)) != sorted(PRINTF.findall(msgstr)):
                    problems.append(f'{where}: keep the format directives')
    check('translations keep mnemonics, ellipses, spacing, quotes and directives',
          not problems, '\n'.join(problems))


def check_compiled(build_dir):
    localedir = os.path.join(build_dir, 'po')
    mo = os.path.join(localedir, LANG, 'LC_MESSAGES', DOMAIN + '.mo')
    if not check('the build compiled ' + os.path.relpath(mo, build_dir), os.path.isfile(mo), mo):
        return
    try:
        t = gettext.translation(DOMAIN, localedir=localedir, languages=[LANG])
    except OSError as e:
        check('Python gettext opens the catalogue', False, str(e))
        return
    for english, german in (('Run', 'Starten'), ('Dataset', 'Datensatz'), ('Clusters', 'Cluster'),
                            ('_Cancel', '_Abbrechen'), ('Export Figure', 'Abbildung exportieren')):
        got = t.gettext(english)
        check(f'“{english}” is “{german}” in the compiled catalogue', got == german, f'got “{got}”')
    one = t.ngettext('%u empty cluster re-seeded from the farthest point. ',
                     '%u empty clusters re-seeded from the farthest points. ', 1)
    many = t.ngettext('%u empty cluster re-seeded from the farthest point. ',
                      '%u empty clusters re-seeded from the farthest points. ', 3)
    check('plural forms: one and many differ', one != many and 'leer' in one and 'leere ' in many,
          f'“{one}” / “{many}”')

    # End to end: latent-cli binds its domain to LATENT_LOCALEDIR, as the window does.
    cli = os.path.join(build_dir, 'app', 'latent-cli')
    if os.access(cli, os.X_OK):
        env = dict(os.environ, LANGUAGE=LANG, LANG='C.UTF-8', LC_ALL='C.UTF-8',
                   LATENT_LOCALEDIR=localedir)
        p = run(cli, 'run', '--help', env=env, timeout=60)
        check('latent-cli run --help speaks German with LATENT_LOCALEDIR',
              'Algorithmen:' in p.stdout and 'k-Means (Abbildungen: scatter' in p.stdout,
              p.stdout + p.stderr)


def check_merged_data(build_dir):
    """i18n.merge_file() put the German strings into the desktop entry and the metainfo."""
    desktop = os.path.join(build_dir, 'data', 'org.latent.Latent.desktop')
    if os.path.isfile(desktop):
        with open(desktop, encoding='utf-8') as f:
            text = f.read()
        check('the desktop entry has Comment[de]', re.search(r'^Comment\[de\]=\S', text, re.M), desktop)
    metainfo = os.path.join(build_dir, 'data', 'org.latent.Latent.metainfo.xml')
    if os.path.isfile(metainfo):
        with open(metainfo, encoding='utf-8') as f:
            text = f.read()
        check('the metainfo has a German summary', '<summary xml:lang="de">' in text, metainfo)


def main():
    if len(sys.argv) != 2:
        print('usage: test-i18n.py BUILD_DIR', file=sys.stderr)
        return 2
    build_dir = os.path.abspath(sys.argv[1])
    for tool in ('xgettext', 'msgmerge', 'msgfmt', 'msgcmp'):
        if shutil.which(tool) is None:
            skip(f'{tool} is not installed (Debian package gettext)')

    po = os.path.join(PODIR, LANG + '.po')
    with open(os.path.join(PODIR, 'LINGUAS'), encoding='utf-8') as f:
        linguas = [w for l in f if not l.lstrip().startswith('#') for w in l.split()]
    check(f'po/LINGUAS lists {LANG}', LANG in linguas, ' '.join(linguas))
    check(f'po/{LANG}.po exists', os.path.isfile(po), po)

    with tempfile.TemporaryDirectory(prefix='latent-i18n-') as tmp:
        listed = check_potfiles()
        pot = make_template(tmp, listed)
        if os.path.isfile(po) and os.path.isfile(pot):
            check_style(check_catalogue(po, pot, tmp))
    check_compiled(build_dir)
    check_merged_data(build_dir)

    print(f'1..{len(results)}')
    for i, (name, ok, why) in enumerate(results, 1):
        print(f'{"ok" if ok else "not ok"} {i} - {name}')
        if not ok and why:
            print('\n'.join('# ' + l for l in why.splitlines()))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
