// Writes Sources/FruitsiteCore/Catalog/NFC+Table.swift, the canonical decompositions that
// `NFC` composes and decomposes by, from this Node's own normalize(), whose ICU tables are
// the ones browsers normalize the search's text with:
//
//   node Tests/Unicode/nfc-table.mjs > Sources/FruitsiteCore/Catalog/NFC+Table.swift
//
// Each code point with a canonical decomposition but the Hangul syllables (NFC computes
// those) is one entry: `P=L+C` for a primary composite P, which NFC makes of L followed by
// C; `X>D.D…` for one that NFC never makes, with its full decomposition.
const hex = (cp) => cp.toString(16).toUpperCase();
const points = (s) => Array.from(s, (c) => c.codePointAt(0));
const entries = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if ((cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0xac00 && cp <= 0xd7a3)) continue;
  const text = String.fromCodePoint(cp);
  const full = points(text.normalize('NFD'));
  if (full.length === 1 && full[0] === cp) continue;
  if (text.normalize('NFC') !== text) {
    entries.push(`${hex(cp)}>${full.map(hex).join('.')}`);
    continue;
  }
  // A primary composite: what NFC composes of all but its last code point, then that one.
  const first = points(String.fromCodePoint(...full.slice(0, -1)).normalize('NFC'));
  const last = full[full.length - 1];
  if (first.length !== 1 || String.fromCodePoint(first[0], last).normalize('NFC') !== text) {
    throw new Error(`U+${hex(cp)} is not a pair's composite`);
  }
  entries.push(`${hex(cp)}=${hex(first[0])}+${hex(last)}`);
}
const lines = [];
let line = '';
for (const entry of entries) {
  if (line.length + entry.length + 1 > 88) {
    lines.push(line);
    line = '';
  }
  line += (line ? ' ' : '') + entry;
}
lines.push(line);
process.stdout.write(`// Made by Tests/Unicode/nfc-table.mjs from Unicode ${process.versions.unicode} (ICU ${process.versions.icu}).

extension NFC {
    /// Every canonical decomposition but the Hangul syllables': \`P=L+C\` for a primary
    /// composite, \`X>D.D\` for a code point NFC never composes, with its full decomposition.
    static let table = """
${lines.map((l) => '        ' + l).join('\n')}
        """
}
`);
