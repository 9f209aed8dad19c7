import ts from 'typescript';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A union's members as printed: `undefined`, then `null`, then everything else by its text. */
const unionRank = (text: string) => (text === 'undefined' ? 0 : text === 'null' ? 1 : 2);
const byUnionRank = (a: string, b: string) => unionRank(a) - unionRank(b) || (a < b ? -1 : a > b ? 1 : 0);

/** Where a property is declared (its file and position), or null for one no source declares. */
const declaredAt = (prop: ts.Symbol): readonly [string, number] | null => {
  const declaration = prop.declarations?.[0];
  return declaration ? [declaration.getSourceFile().fileName, declaration.pos] : null;
};

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An object's properties in an order only its schemas decide: those a source declares as declared (file by
 * file, then in the file's order), then the rest by name. The checker lists a zod object's properties by when
 * each key's literal type was first made anywhere in the program, so a change far from the schema (a
 * service renamed, a file split) could reorder the printed file; it cannot reorder this.
 */
function inStableOrder(props: ts.Symbol[]): ts.Symbol[] {
  const at = new Map(props.map((prop) => [prop, declaredAt(prop)]));
  return [...props].sort((a, b) => {
    const x = at.get(a);
    const y = at.get(b);
    if (x && y) return compareText(x[0], y[0]) || x[1] - y[1];
    if (x || y) return x ? -1 : 1;
    return compareText(a.getName(), b.getName());
  });
}

/**
 * A type as self-contained TypeScript text: object types are spelled out member by member instead of by the
 * name of the alias or interface that declares them, so the text needs no import from the server's
 * packages. A type that contains itself is cut to `unknown` where it recurs (JSON values, trees).
 */
export function printType(checker: ts.TypeChecker, type: ts.Type, indent = ''): string {
  const inProgress = new Set<ts.Type>();

  const print = (t: ts.Type, pad: string): string => {
    const f = t.flags;
    if (f & ts.TypeFlags.Any) return 'any';
    if (f & ts.TypeFlags.Unknown) return 'unknown';
    if (f & ts.TypeFlags.Never) return 'never';
    if (f & ts.TypeFlags.Null) return 'null';
    if (f & ts.TypeFlags.Undefined) return 'undefined';
    if (f & ts.TypeFlags.Void) return 'void';
    if (f & (ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.Boolean | ts.TypeFlags.BigInt)) {
      return checker.typeToString(t);
    }
    if (f & ts.TypeFlags.BooleanLiteral) return checker.typeToString(t);
    if (t.isStringLiteral()) return JSON.stringify(t.value);
    if (t.isNumberLiteral()) return String(t.value);
    if (f & ts.TypeFlags.TemplateLiteral) return checker.typeToString(t);
    if (f & ts.TypeFlags.ESSymbolLike) return 'symbol';
    if (f & ts.TypeFlags.TypeParameter) return 'unknown';
    if (t.isUnion()) return union(t.types, pad);
    if (t.isIntersection()) {
      // A branded string stays a string: the brand object has only symbol keys, printed as `{}` and dropped.
      const parts = t.types
        .map((m) => (m.isUnion() ? `(${print(m, pad)})` : print(m, pad)))
        .filter((p) => p !== '{}');
      if (parts.length === 0) return '{}';
      return parts.join(' & ');
    }
    if (f & ts.TypeFlags.NonPrimitive) return 'object';
    if (f & ts.TypeFlags.Object) return object(t as ts.ObjectType, pad);
    return checker.typeToString(t, undefined, ts.TypeFormatFlags.NoTruncation);
  };

  const union = (members: ts.Type[], pad: string) => {
    const hasTrue = members.some(
      (m) => m.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(m) === 'true',
    );
    const hasFalse = members.some(
      (m) => m.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(m) === 'false',
    );
    const parts: string[] = [];
    for (const m of members) {
      if (hasTrue && hasFalse && m.flags & ts.TypeFlags.BooleanLiteral) {
        if (!parts.includes('boolean')) parts.push('boolean');
        continue;
      }
      const text = print(m, pad);
      if (!parts.includes(text)) parts.push(text);
    }
    // The checker orders a union's members by when each type was first made, which any change to the
    // program can shift: sorted, the printed file changes only when the types do.
    return parts.sort(byUnionRank).join(' | ');
  };

  const object = (t: ts.ObjectType, pad: string): string => {
    if (checker.isArrayType(t)) {
      const [element] = checker.getTypeArguments(t as ts.TypeReference);
      return `Array<${element ? print(element, pad) : 'unknown'}>`;
    }
    if (checker.isTupleType(t)) {
      return `[${checker
        .getTypeArguments(t as ts.TypeReference)
        .map((m) => print(m, pad))
        .join(', ')}]`;
    }
    const name = t.getSymbol()?.getName();
    if (name === 'Date') return 'Date';
    if (t.getCallSignatures().length > 0) return 'unknown';
    if (inProgress.has(t)) return 'unknown';
    inProgress.add(t);
    try {
      const inner = `${pad}  `;
      const lines: string[] = [];
      for (const info of checker.getIndexInfosOfType(t)) {
        lines.push(`${inner}[key: ${print(info.keyType, inner)}]: ${print(info.type, inner)};`);
      }
      for (const prop of inStableOrder(checker.getPropertiesOfType(t))) {
        const key = prop.getName();
        if (key.startsWith('__@')) continue; // symbol keys (zod brands): not part of the JSON
        const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
        const text = print(checker.getTypeOfSymbol(prop), inner);
        lines.push(
          `${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}${optional ? '?' : ''}: ${text};`,
        );
      }
      return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${pad}}`;
    } finally {
      inProgress.delete(t);
    }
  };

  return print(type, indent);
}
