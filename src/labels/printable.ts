/**
 * The characters outside Latin-1 that Windows-1252 ("WinAnsi") adds: the PDF's built-in Helvetica can show those
 * and Latin-1, nothing else, and pdfkit turns anything else into stray bytes rather than refusing it.
 */
const winAnsiExtras = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Letters with a stroke rather than an accent, which Unicode does not decompose into a base letter. */
const stroked: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i' };

function printableChar(c: string): string {
  const code = c.codePointAt(0)!;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || winAnsiExtras.has(c)) return c;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return ' ';
  if (/\p{M}/u.test(c)) return '';
  const base = stroked[c] ?? c.normalize('NFKD').replace(/\p{M}/gu, '');
  // Ő, Ș and the like keep their letter; scripts Helvetica lacks (and emoji) become '?'.
  return base.length > 0 && [...base].every((b) => b.charCodeAt(0) <= 0xff) ? base : '?';
}

/** Text a client sent, reduced to what every label format prints alike. */
export function printable(text: string): string {
  let out = '';
  for (const c of text.normalize('NFC')) out += printableChar(c);
  return out;
}
