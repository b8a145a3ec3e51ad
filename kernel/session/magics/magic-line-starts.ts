// Which lines of a cell are magic lines: `%name args` at a line start that is code, not
// inside a string, a template literal, a comment or a regular expression (a `%` line in a
// multi-line template literal is text). A small lexer: scanning with TypeScript's scanner
// needs the parser's re-scans for templates and regexes, and the cell is not TypeScript.

/** Keywords after which `/` starts a regular expression, not a division. */
const BEFORE_EXPRESSION = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

/**
 * For each line of `source`, `isMagic(line)`'s result when the line starts in code, else
 * undefined. A magic line itself is not lexed (its args are no part of the code around it).
 */
export function magicLineStarts<T>(source: string, isMagic: (line: string) => T | undefined): (T | undefined)[] {
  const lines = source.split('\n');
  const result: (T | undefined)[] = [];
  // Open template literals: the count of `{` open in each one's current `${ }` (-1: in its text).
  const templates: number[] = [];
  let inBlockComment = false;
  /** The quote of a string that a `\` at the end of the line before continues onto this one. */
  let openString: string | undefined;
  let last = ''; // the last significant token of code, to tell a regex from a division
  for (const line of lines) {
    const inCode = !inBlockComment && !openString && (templates.length === 0 || templates.at(-1)! >= 0);
    const magic = inCode ? isMagic(line) : undefined;
    result.push(magic);
    if (magic !== undefined) continue;
    let i = 0;
    if (openString) {
      i = endOfString(line, 0, openString);
      if (i < 0) continue;
      openString = undefined;
      last = 'string';
    }
    while (i < line.length) {
      const c = line[i];
      if (inBlockComment) {
        const end = line.indexOf('*/', i);
        if (end < 0) break;
        inBlockComment = false;
        i = end + 2;
      } else if (templates.length && templates.at(-1)! < 0) {
        if (c === '`') {
          templates.pop();
          last = '`';
        } else if (c === '$' && line[i + 1] === '{') {
          templates[templates.length - 1] = 0; // `}` at depth 0 brings it back to -1: the text
          last = '{';
          i++;
        } else if (c === '\\') {
          i++;
        }
        i++;
      } else if (c === '/' && line[i + 1] === '/') {
        break;
      } else if (c === '/' && line[i + 1] === '*') {
        inBlockComment = true;
        i += 2;
      } else if (c === '/' && regexMayStart(last)) {
        i = endOfRegex(line, i);
        last = 'regex';
      } else if (c === '"' || c === "'") {
        i = endOfString(line, i + 1, c);
        last = 'string';
        if (i < 0) {
          openString = c;
          break;
        }
      } else if (c === '`') {
        templates.push(-1);
        i++;
      } else if (/\s/.test(c)) {
        i++;
      } else if (/[\w$]/.test(c)) {
        const word = /^[\w$]+/.exec(line.slice(i))![0];
        last = word;
        i += word.length;
      } else {
        if (templates.length && c === '{') templates[templates.length - 1]++;
        else if (templates.length && c === '}') templates[templates.length - 1]--;
        last = c;
        i++;
      }
    }
  }
  return result;
}

function regexMayStart(last: string): boolean {
  if (last === '' || BEFORE_EXPRESSION.has(last)) return true;
  return !/^[\w$]/.test(last) && ![')', ']', '}', 'string', 'regex', '`'].includes(last);
}

/** Past the closing quote, from `from` inside the string; -1 when a `\` at the line's end continues it on the next line; the line's end if it is left open (a syntax error). */
function endOfString(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') {
      if (i === line.length - 1 || (i === line.length - 2 && line[i + 1] === '\r')) return -1;
      i++;
    } else if (line[i] === quote) return i + 1;
  }
  return line.length;
}

function endOfRegex(line: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return i + 1;
  }
  return line.length;
}
