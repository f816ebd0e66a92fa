import {
  badgeRecipe,
  buttonRecipe,
  codeRecipe,
  containerRecipe,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  linkRecipe,
  separatorRecipe,
  skeletonRecipe,
  skipNavLinkRecipe,
  spinnerRecipe,
  textareaRecipe,
} from '@chakra-ui/react/theme';

/*
 * The component recipes registered in the lean system (see ./theme.ts). Add one here when a
 * screen starts using a Chakra component that has a recipe (Heading, Badge, Textarea...);
 * `theme.test.ts` fails until you do. Keys are the names Chakra looks recipes up by.
 *
 * Slot recipes (Card, Field, Tabs, Dialog, Menu, Toast...) go in ./theme-slot-recipes.ts: they
 * load after the landing page, with the first route, menu or toast that needs them.
 */
export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  code: codeRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  skipNavLink: skipNavLinkRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};
