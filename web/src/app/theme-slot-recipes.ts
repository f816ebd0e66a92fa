import {
  alertSlotRecipe,
  avatarSlotRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  comboboxSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  numberInputSlotRecipe,
  progressSlotRecipe,
  radioGroupSlotRecipe,
  sliderSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  toastSlotRecipe,
} from '@chakra-ui/react/theme';

/*
 * The slot recipes of the lean system (multi-part components: Card, Field, Tabs, Dialog, Menu,
 * Drawer, Toast...). Add one here when a screen starts using such a component; `theme.test.ts`
 * fails until you do. They are not part of the first download: `loadSlotRecipes()` in ./theme.ts
 * registers them before any route other than the landing page renders (see ./routes.tsx), and
 * before the signed-in menu and the first toast. Keys are the names Chakra looks recipes up by.
 */
export const slotRecipes = {
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  combobox: comboboxSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  fieldset: fieldsetSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  numberInput: numberInputSlotRecipe,
  progress: progressSlotRecipe,
  radioGroup: radioGroupSlotRecipe,
  slider: sliderSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  toast: toastSlotRecipe,
};
