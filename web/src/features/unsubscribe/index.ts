export { UnsubscribePage } from './unsubscribe-page';
