import postcss, { type Declaration } from 'postcss';

/*
 * A prerendered page's inlined CSS carries only what the page uses. Emotion already extracts only
 * the class rules the page's HTML names; the theme's global sheet (Chakra's reset, its keyframes
 * and every design token as a custom property) comes whole, 49 KB of it for 2 KB of tokens a
 * page reads. Here the global sheet loses the custom properties nothing on the page reads (not the
 * page's rules, not its inline styles, not a property kept) and the @keyframes nothing names.
 *
 * The pruned sheet no longer carries emotion's mark (`data-emotion="css-global <hash>"`), so the
 * app, when it takes the page over, does not adopt it as the whole global sheet: it inserts the
 * theme's full sheet, as on any other page, and the routes it goes on to find every token.
 */

const GLOBAL_STYLE = /<style data-emotion="css-global [^"]+"( nonce="[^"]*")?>([\s\S]*?)<\/style>/g;
const CUSTOM_PROPERTY_USE = /var\(\s*(--(?:[\w-]|\\.)+)/g; // a name may escape a dot: --spacing-1\.5

function uses(text: string): string[] {
  return [...text.matchAll(CUSTOM_PROPERTY_USE)].map((match) => match[1]!);
}

/** `styles` (emotion's style tags for the page) with their global sheets pruned for `html`. */
export function pruneGlobalStyles(styles: string, html: string): string {
  const outside = styles.replace(GLOBAL_STYLE, '') + html;
  return styles.replace(GLOBAL_STYLE, (_tag, _nonce, css: string) => {
    const root = postcss.parse(css);
    const properties = new Map<string, Declaration[]>();
    const used = new Set(uses(outside));
    const words = new Set<string>();
    const read = (value: string) => {
      for (const name of uses(value)) used.add(name);
      for (const word of value.split(/[^\w-]+/)) words.add(word);
    };
    read(outside);
    root.walkDecls((decl) => {
      if (decl.prop.startsWith('--')) properties.set(decl.prop, [...(properties.get(decl.prop) ?? []), decl]);
      else read(decl.value);
    });
    // a kept property keeps the ones its value reads, and so on
    const pending = [...used];
    while (pending.length) {
      for (const decl of properties.get(pending.pop()!) ?? []) {
        for (const name of uses(decl.value)) {
          if (!used.has(name)) {
            used.add(name);
            pending.push(name);
          }
        }
        for (const word of decl.value.split(/[^\w-]+/)) words.add(word);
      }
    }
    for (const [name, decls] of properties) if (!used.has(name)) for (const decl of decls) decl.remove();
    root.walkAtRules(/keyframes$/, (rule) => {
      if (!words.has(rule.params)) rule.remove();
    });
    root.walkRules((rule) => {
      if (!rule.nodes.length) rule.remove();
    });
    return `<style data-prerendered-global>${root.toString()}</style>`;
  });
}
