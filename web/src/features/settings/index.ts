// What the app composes into the dashboard route; everything else in this feature is internal.
export { SettingsTab } from './settings-tab';
