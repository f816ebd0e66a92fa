import { createSystem, defaultBaseConfig, defineConfig, mergeConfigs } from '@chakra-ui/react';
import {
  animationStyles,
  breakpoints,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  keyframes,
  layerStyles,
  semanticTokens,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme';
import { recipes } from './theme-recipes';

/*
 * A lean Chakra system. `defaultSystem` registers every component recipe (about 80), which
 * adds some 44 KB of gzipped JavaScript to the landing route (see DESIGN.md). We take the base
 * config and the default tokens, and register only the recipes the app renders, listed in
 * ./theme-recipes.ts. A component whose recipe is missing renders unstyled without any
 * warning, so `theme.test.ts` checks that every Chakra component used under src/ has its
 * recipe here.
 */

const brand = {
  50: '#ecf5fe',
  100: '#d4e8fc',
  200: '#a9d0f8',
  300: '#74b1f1',
  400: '#3f8fe6',
  500: '#1a74d6',
  600: '#0b63be',
  700: '#0a4f98',
  800: '#0c3f77',
  900: '#0d335f',
  950: '#09203d',
};

const brandConfig = defineConfig({
  globalCss: {
    // Brand is the default palette, so focus rings, selection and solid buttons share it.
    html: { colorPalette: 'brand' },
    body: { minHeight: '100dvh' },
  },
  theme: {
    tokens: {
      colors: {
        brand: Object.fromEntries(Object.entries(brand).map(([shade, value]) => [shade, { value }])),
      },
    },
    semanticTokens: {
      colors: {
        // Chakra's red.500 error text is 3.8:1 on white; red.600 meets WCAG AA for small text.
        fg: { error: { value: { _light: '{colors.red.600}', _dark: '{colors.red.400}' } } },
        // White on green.600 / orange.600 (success and warning toasts, solid badges) is about
        // 3.3:1; one shade darker passes 4.5:1.
        green: { solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.700}' } } },
        orange: { solid: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.700}' } } },
        brand: {
          contrast: { value: { _light: 'white', _dark: 'white' } },
          fg: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
          subtle: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          muted: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          emphasized: { value: { _light: '{colors.brand.300}', _dark: '{colors.brand.700}' } },
          solid: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.500}' } },
          focusRing: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.400}' } },
          border: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.400}' } },
        },
      },
    },
  },
});

export const system = createSystem(
  mergeConfigs(
    defaultBaseConfig,
    defineConfig({
      preflight: true,
      cssVarsPrefix,
      cssVarsRoot,
      globalCss,
      theme: {
        breakpoints,
        keyframes,
        tokens,
        semanticTokens,
        recipes,
        // filled by loadSlotRecipes() below
        slotRecipes: {},
        textStyles,
        layerStyles,
        animationStyles,
      },
    }),
    brandConfig,
  ),
);

/*
 * Slot recipes (./theme-slot-recipes.ts) are registered after the first paint: the landing page
 * uses none, and they are some 5 KB of gzipped JavaScript. Chakra reads `theme.slotRecipes[key]`
 * when a component first asks for its recipe (and caches the compiled result), so they must be
 * registered before any component that uses one renders: routes.tsx awaits this in every lazy
 * route but the landing page's, the header before the signed-in menu, the toaster before its
 * first toast.
 */
let slotRecipesLoaded: Promise<void> | null = null;

export function loadSlotRecipes(): Promise<void> {
  slotRecipesLoaded ??= import('./theme-slot-recipes').then(({ slotRecipes }) => {
    const theme = system._config.theme;
    if (!theme) throw new Error('the Chakra system has no theme');
    theme.slotRecipes = { ...theme.slotRecipes, ...slotRecipes };
  });
  return slotRecipesLoaded;
}
