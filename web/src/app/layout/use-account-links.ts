import type { CurrentUser } from '@/lib/auth';

export interface AccountLink {
  value: string;
  label: string;
  to: string;
}

/** The signed-in menu's destinations, the same on desktop and mobile. */
export function accountLinks(user: Pick<CurrentUser, 'isAdmin'>): AccountLink[] {
  const links: AccountLink[] = [
    { value: 'account', label: 'Account Settings', to: '/account' },
    { value: 'dashboard', label: 'Dashboard', to: '/dashboard' },
  ];
  if (user.isAdmin) links.push({ value: 'admin', label: 'Admin Dashboard', to: '/admin' });
  return links;
}
