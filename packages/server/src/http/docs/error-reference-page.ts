import { errorCatalog, type ErrorCode } from '../../core/errors/index.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character]!);
}

/** Catalog texts mark names with backticks, as in Markdown: shown as code. */
function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function entry(code: ErrorCode): string {
  const { status, message, action } = errorCatalog[code];
  return [
    `<section id="${code}">`,
    `<h2><a href="#${code}"><code>${code}</code></a> <span class="status">HTTP ${status}</span></h2>`,
    `<p>${inlineCode(message)}</p>`,
    `<p><strong>What to do:</strong> ${inlineCode(action)}</p>`,
    '</section>',
  ].join('\n');
}

/**
 * The error reference as one HTML page, generated from the error catalog so that it lists exactly
 * the codes the server can send: one section per code whose id is the code, the anchor of every
 * error body's `doc_url`.
 */
export function errorReferencePage(): string {
  const codes = Object.keys(errorCatalog) as ErrorCode[];
  const index = codes.map((code) => `<li><a href="#${code}"><code>${code}</code></a> (${errorCatalog[code].status})</li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Akwe error reference</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1d1d1f; }
section { border-top: 1px solid #ddd; padding-top: .5rem; }
section:target { background: #fff8dc; }
h2 { font-size: 1.1rem; }
h2 a { color: inherit; text-decoration: none; }
.status { font-weight: normal; color: #555; }
ul { columns: 2; }
</style>
</head>
<body>
<h1>Error reference</h1>
<p>Every error of the API (except the earlier collect contract's paths, which keep their own shape) is
<code>{"error": {"code", "message", "field"?, "details"?, "doc_url", "request_id"}}</code>. Branch on
<code>code</code>, which is stable; <code>message</code> is written for people and may change;
<code>doc_url</code> links to the code's entry below. Amounts: the current collect contract (and its
refunds) speaks major units (3000 = 3 000 FCFA); payouts, bulk payments, balances and the earlier collect
contract speak centimes (10000 = 100 FCFA).</p>
<ul>
${index}
</ul>
${codes.map(entry).join('\n')}
</body>
</html>
`;
}
