/**
 * How deep a JSON text nests, measured before it is parsed. Code that walks a parsed body
 * recursively (the NUL check, request fingerprints, schema validation) would overflow the stack
 * on a body nested thousands of levels deep, a 500 for bad input; no body of the API nests more
 * than a few levels. A plain loop over the text: it must not recurse itself.
 */

/** Deepest nesting a request body may have: objects and arrays inside each other, the outermost counting 1. */
export const MAX_JSON_NESTING_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** True when brackets and braces outside strings nest deeper than `limit`. Malformed JSON is left to the parser. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH)
        i++; // the escaped character cannot end the string
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
