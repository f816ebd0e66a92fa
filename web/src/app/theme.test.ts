import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recipes } from './theme-recipes';
import { slotRecipes } from './theme-slot-recipes';
import { loadSlotRecipes, system } from './theme';

/*
 * The lean system registers only some recipes (./theme.ts), and Chakra renders a component
 * whose recipe is missing without styles or a warning. This test reads which Chakra components
 * each source file imports and checks their recipes are registered.
 */

/** Chakra export -> the recipe (or slot recipe) it looks up. Exports without a recipe are absent. */
const recipeOf: Record<string, string> = {
  Accordion: 'accordion',
  ActionBar: 'actionBar',
  Alert: 'alert',
  Avatar: 'avatar',
  AvatarGroup: 'avatar',
  Badge: 'badge',
  Blockquote: 'blockquote',
  Breadcrumb: 'breadcrumb',
  Button: 'button',
  Card: 'card',
  Carousel: 'carousel',
  Checkbox: 'checkbox',
  CheckboxCard: 'checkboxCard',
  Checkmark: 'checkmark',
  CloseButton: 'button',
  Code: 'code',
  CodeBlock: 'codeBlock',
  Collapsible: 'collapsible',
  ColorPicker: 'colorPicker',
  ColorSwatch: 'colorSwatch',
  Combobox: 'combobox',
  Container: 'container',
  DataList: 'dataList',
  DateInput: 'dateInput',
  DatePicker: 'datePicker',
  Dialog: 'dialog',
  Drawer: 'drawer',
  Editable: 'editable',
  EmptyState: 'emptyState',
  Field: 'field',
  Fieldset: 'fieldset',
  FileUpload: 'fileUpload',
  FloatingPanel: 'floatingPanel',
  Heading: 'heading',
  HoverCard: 'hoverCard',
  Icon: 'icon',
  IconButton: 'button',
  Input: 'input',
  InputAddon: 'inputAddon',
  InputGroup: 'inputAddon',
  Kbd: 'kbd',
  Link: 'link',
  List: 'list',
  Listbox: 'listbox',
  Mark: 'mark',
  Marquee: 'marquee',
  Menu: 'menu',
  NativeSelect: 'nativeSelect',
  NumberInput: 'numberInput',
  PinInput: 'pinInput',
  Popover: 'popover',
  Progress: 'progress',
  ProgressCircle: 'progressCircle',
  QrCode: 'qrCode',
  RadioCard: 'radioCard',
  RadioGroup: 'radioGroup',
  Radiomark: 'radiomark',
  RatingGroup: 'ratingGroup',
  ScrollArea: 'scrollArea',
  SegmentGroup: 'segmentGroup',
  Select: 'select',
  Separator: 'separator',
  Skeleton: 'skeleton',
  SkeletonCircle: 'skeleton',
  SkeletonText: 'skeleton',
  SkipNavLink: 'skipNavLink',
  Slider: 'slider',
  Spinner: 'spinner',
  Splitter: 'splitter',
  Stat: 'stat',
  Status: 'status',
  Steps: 'steps',
  Switch: 'switch',
  Table: 'table',
  Tabs: 'tabs',
  Tag: 'tag',
  TagsInput: 'tagsInput',
  Textarea: 'textarea',
  Timeline: 'timeline',
  Toast: 'toast',
  Toaster: 'toast',
  Tooltip: 'tooltip',
  TreeView: 'treeView',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function chakraImports(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

describe('the lean Chakra system', () => {
  const root = join(__dirname, '..');
  const registered = new Set([...Object.keys(recipes), ...Object.keys(slotRecipes)]);

  it('registers the recipe of every Chakra component the app imports', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(root)) {
      for (const name of chakraImports(readFileSync(file, 'utf8'))) {
        const recipe = recipeOf[name];
        if (recipe && !registered.has(recipe)) {
          missing.push(`${file.slice(root.length + 1)}: ${name} needs '${recipe}'`);
        }
      }
    }
    expect(missing, 'add these to src/app/theme-recipes.ts (slot recipes: theme-slot-recipes.ts)').toEqual([]);
  });

  it('has the brand palette and resolves its tokens', () => {
    expect(system.token('colors.brand.600')).toBe('#0b63be');
    expect(system.isValidProperty('colorPalette')).toBe(true);
  });

  it('holds only the registered recipes, not the default set; slot recipes once loaded', async () => {
    await loadSlotRecipes();
    const theme = system._config.theme ?? {};
    expect(system.getSlotRecipe('card')).toBe(slotRecipes.card);
    expect(Object.keys(theme.recipes ?? {}).sort()).toEqual(Object.keys(recipes).sort());
    expect(Object.keys(theme.slotRecipes ?? {}).sort()).toEqual(Object.keys(slotRecipes).sort());
  });
});
