// What the app composes into its routes; everything else in this feature is internal.
export { EmailSettingsPanel } from './email-settings-panel';
export { EmailConnectionPanel, EmailImportProgress } from './components/connection-panel';
export { EmailConnectActions } from './components/connect-email';
