import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { demoTraveller, expectToast, logIn, waitForEmail } from './support.ts';

// The public pages: prerendered (in the HTML before any JavaScript, hydrated without a mismatch,
// hidden from a browser holding a session), where every navigation link lands, the contact form
// end to end (validation, success, rate limit, the email in the mail catcher), an automated
// accessibility check, and screenshots of each page at desktop and phone width.

const SUPPORT = 'support@fareback.app';

function tag() {
  return randomBytes(4).toString('hex');
}

const header = (page: Page) => page.getByRole('banner');

const prerenderedPages = [
  ['/', 'Airlines Owe You Money'],
  ['/contact', 'Contact Us'],
  ['/help', 'Help Center'],
  ['/privacy', 'Privacy Policy'],
  ['/terms', 'Terms of Service'],
] as const;

/**
 * The public pages arrive prerendered: the page shows before its code runs, and its buttons and
 * forms work once React has hydrated it. React marks each element it has taken over with its
 * fiber (`__reactFiber$...`): wait for the page's heading to carry it.
 */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const heading = document.querySelector('#root h1');
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'));
  });
}

async function openPublicPage(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

test.describe('prerendered, before any JavaScript runs (375 px)', () => {
  test.use({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });

  test('each public page arrives with its heading, title and styles in the HTML', async ({ page }) => {
    for (const [path, heading] of prerenderedPages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page).toHaveTitle(path === '/' ? 'FareBack · Airlines Owe You Money' : `${heading} · FareBack`);
      // styled from the first response: the header's own rules came with the page
      expect(await header(page).evaluate((element) => getComputedStyle(element).position)).toBe('sticky');
    }
  });

  test("no public page preloads the app's code: its one module script loads it after the page", async ({ page }) => {
    for (const [path] of prerenderedPages) {
      await page.goto(path);
      expect(await page.locator('link[rel="modulepreload"]').count(), path).toBe(0);
      expect(await page.locator('script[type="module"][src^="/assets/"]').count(), path).toBe(1);
    }
  });

  test("each public page's inlined global CSS is pruned to what it uses (the app inserts the whole later)", async ({
    page,
  }) => {
    for (const [path] of prerenderedPages) {
      await page.goto(path);
      expect(await page.locator('style[data-emotion^="css-global"]').count(), path).toBe(0);
      const sheet = await page.locator('style[data-prerendered-global]').allTextContents();
      expect(sheet.join('').length, path).toBeLessThan(25_000);
    }
  });
});

test.describe('prerendered pages after JavaScript', () => {
  test('each hydrates without a mismatch or an error', async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // an api call that answers an error status (the current user: 401) is not the page's
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(message.text());
      }
    });
    for (const [path, heading] of prerenderedPages) {
      await openPublicPage(page, path);
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      expect(problems, path).toEqual([]);
    }
  });

  test('before the app has loaded, a form does not submit natively (what was typed stays out of the URL)', async ({
    page,
  }) => {
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/contact');
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    const prevented = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          window.addEventListener(
            'submit',
            (event) => {
              resolve(event.defaultPrevented);
              event.preventDefault();
            },
            { once: true },
          );
          document.querySelector('form')?.requestSubmit();
        }),
    );
    expect(prevented).toBe(true);
  });

  test('a browser holding a session is never shown the visitor page: hidden until the app sends it on', async ({
    page,
  }) => {
    await logIn(page, demoTraveller);
    // what the page's HTML alone shows, with the app's code held back
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    await expect(page.locator('#root h1')).toHaveText('Airlines Owe You Money');
    await expect(page.locator('#root')).toBeHidden();
    await page.unroute('**/assets/*.js');
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Flight Savings Dashboard' })).toBeVisible();
  });
});

test.describe('navigation (1280 px)', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('landing header: Pricing and FAQs scroll to their sections, the rest land on their pages', async ({ page }) => {
    await openPublicPage(page, '/');
    await expect(page).toHaveTitle('FareBack · Airlines Owe You Money');
    await expect(page.getByRole('heading', { level: 1, name: 'Airlines Owe You Money' })).toBeVisible();
    await expect(page.locator('#pricing')).not.toBeInViewport();

    await header(page).getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page).toHaveURL(/\/#pricing$/);
    await expect(page.locator('#pricing')).toBeInViewport();
    await expect(page.getByRole('heading', { name: 'Simple pricing that pays for itself' })).toBeInViewport();

    await header(page).getByRole('link', { name: 'FAQs', exact: true }).click();
    await expect(page).toHaveURL(/\/#faq$/);
    await expect(page.getByRole('heading', { name: 'Questions travellers ask us' })).toBeInViewport();

    // Pricing again from the same URL still scrolls there
    await header(page).getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page.locator('#pricing')).toBeInViewport();
    await header(page).getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.mouse.wheel(0, 3000);
    await header(page).getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page.locator('#pricing')).toBeInViewport();

    await header(page).getByRole('link', { name: 'Contact Us', exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();

    await header(page).getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Airlines Owe You Money' })).toBeVisible();

    await header(page).getByRole('link', { name: 'Log In', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
    await page.goBack();
    await header(page).getByRole('link', { name: 'Sign Up', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Create an Account' })).toBeVisible();
  });

  test('contact header: Pricing goes to the landing page and scrolls to pricing', async ({ page }) => {
    await openPublicPage(page, '/contact');
    const nav = header(page);
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Contact Us', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Log In', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Sign Up', exact: true })).toBeVisible();
    await nav.getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page).toHaveURL(/\/#pricing$/);
    await expect(page.getByRole('heading', { name: 'Simple pricing that pays for itself' })).toBeInViewport();
    await expect(page.getByText('$24.99', { exact: true })).toBeVisible();
  });

  test('footer: Company, Support and Legal columns lead to real pages; social links open new tabs', async ({
    page,
  }) => {
    await openPublicPage(page, '/contact');
    const footer = page.getByRole('contentinfo');
    for (const column of ['Company', 'Support', 'Legal']) {
      await expect(footer.getByRole('heading', { name: column })).toBeVisible();
    }
    await expect(footer.getByRole('link', { name: 'FareBack on LinkedIn', exact: true })).toHaveAttribute(
      'target',
      '_blank',
    );
    for (const [name, heading] of [
      ['Privacy Policy', 'Privacy Policy'],
      ['Terms of Service', 'Terms of Service'],
      ['Help Center', 'Help Center'],
    ] as const) {
      await page.getByRole('contentinfo').getByRole('link', { name, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQs', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Questions travellers ask us' })).toBeInViewport();
  });

  test('a signed-in traveller goes from / to /dashboard; the contact page offers Dashboard and is prefilled', async ({
    page,
  }) => {
    await logIn(page, demoTraveller);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/contact');
    await expect(header(page).getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
    await expect(header(page).getByRole('link', { name: 'Log In', exact: true })).toHaveCount(0);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(demoTraveller.username);
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(/@/);
    await header(page).getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('mobile menu (375 px)', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('opens with the site links, scrolls to pricing, closes with Escape', async ({ page }) => {
    // once hydrated: before that the menu button does nothing
    await openPublicPage(page, '/');
    await expect(page.getByRole('heading', { level: 1, name: 'Airlines Owe You Money' })).toBeVisible();
    await expect(header(page).getByRole('link', { name: 'Pricing', exact: true })).toBeHidden();
    const menuButton = header(page).getByRole('button', { name: 'Open menu', exact: true });
    await menuButton.click();
    await expect(header(page).getByRole('button', { name: 'Close menu', exact: true })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    for (const name of ['Home', 'Pricing', 'FAQs', 'Contact Us', 'Log In', 'Sign Up']) {
      await expect(header(page).getByRole('link', { name, exact: true })).toBeVisible();
    }
    await header(page).getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page.locator('#pricing')).toBeInViewport();
    await expect(header(page).getByRole('link', { name: 'FAQs', exact: true })).toBeHidden();

    await header(page).getByRole('button', { name: 'Open menu', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(header(page).getByRole('link', { name: 'FAQs', exact: true })).toBeHidden();
    await expect(header(page).getByRole('button', { name: 'Open menu', exact: true })).toBeFocused();

    await header(page).getByRole('button', { name: 'Open menu', exact: true }).click();
    await header(page).getByRole('link', { name: 'Contact Us', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  });
});

test.describe('contact form', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('shows each validation message, then sends, toasts and resets; support gets the email', async ({ page }) => {
    await openPublicPage(page, '/contact');
    const send = page.getByRole('button', { name: 'Send Message', exact: true });
    await send.click();
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Subject must be at least 5 characters')).toBeVisible();
    await expect(page.getByText('Message must be at least 10 characters')).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toBeFocused();

    const id = tag();
    const email = `visitor.${id}@example.com`;
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await expect(page.getByText('Name must be at least 2 characters')).toBeHidden();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Subject', { exact: true }).fill(`Credit expiry ${id}`);
    await page.getByLabel('Message', { exact: true }).fill('When does the credit from my Delta rebooking expire?');
    await expectToast(
      page,
      { title: 'Message Sent', description: "We've received your message and will get back to you shortly." },
      () => send.click(),
    );
    for (const label of ['Name', 'Email', 'Subject', 'Message'])
      await expect(page.getByLabel(label, { exact: true })).toHaveValue('');

    const mail = await waitForEmail(SUPPORT, (e) => e.subject.includes(`Credit expiry ${id}`));
    expect(mail.text).toContain('When does the credit from my Delta rebooking expire?');
    expect(mail.headers['reply-to']).toContain(email);
  });

  test("shows 'Sending...' while the message goes", async ({ page }) => {
    await openPublicPage(page, '/contact');
    // the answer is held until the test has seen the button say so, however long that takes
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/contact', async (route) => {
      await answered;
      await route.fulfill({ status: 201, json: { message: 'ok' } });
    });
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('Email', { exact: true }).fill(`visitor.${tag()}@example.com`);
    await page.getByLabel('Subject', { exact: true }).fill('Sending state check');
    await page.getByLabel('Message', { exact: true }).fill('Checking the button label while sending.');
    await page.getByRole('button', { name: 'Send Message', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Sending...', exact: true })).toBeVisible();
    await expectToast(page, { title: 'Message Sent' }, async () => answer());
  });

  test('a fourth message from one address in ten minutes is refused with the rate-limit message', async ({ page }) => {
    const email = `busy.${tag()}@example.com`;
    for (let i = 1; i <= 3; i += 1) {
      const res = await page.request.post('/api/contact', {
        data: { name: 'Busy Traveller', email, subject: `Question number ${i}`, message: 'Another question.' },
      });
      expect(res.status()).toBe(201);
    }
    await openPublicPage(page, '/contact');
    await page.getByLabel('Name', { exact: true }).fill('Busy Traveller');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Subject', { exact: true }).fill('Question number 4');
    await page.getByLabel('Message', { exact: true }).fill('One more question, please.');
    await expectToast(
      page,
      {
        title: 'Error',
        description: 'You have sent several messages in a short time. Please wait 10 minutes before sending another.',
      },
      () => page.getByRole('button', { name: 'Send Message', exact: true }).click(),
    );
    // nothing is reset: the visitor can send it later
    await expect(page.getByLabel('Subject', { exact: true })).toHaveValue('Question number 4');
  });

  test("a refusal without a message shows 'Failed to send message'; no answer shows the network text", async ({
    page,
  }) => {
    await openPublicPage(page, '/contact');
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('Email', { exact: true }).fill(`visitor.${tag()}@example.com`);
    await page.getByLabel('Subject', { exact: true }).fill('Error path check');
    await page.getByLabel('Message', { exact: true }).fill('Checking what the toast says on errors.');
    await page.route('**/api/contact', (route) => route.fulfill({ status: 502, body: '' }));
    await expectToast(page, { title: 'Error', description: 'Failed to send message' }, () =>
      page.getByRole('button', { name: 'Send Message', exact: true }).click(),
    );
    await page.unroute('**/api/contact');
    await page.route('**/api/contact', (route) => route.abort('connectionreset'));
    await expectToast(page, { title: 'Error', description: 'An error occurred while sending your message' }, () =>
      page.getByRole('button', { name: 'Send Message', exact: true }).click(),
    );
  });
});

test.describe('accessibility (axe-core)', () => {
  for (const path of ['/', '/contact', '/login', '/sign-up', '/help', '/privacy', '/terms']) {
    test(`${path} has no serious or critical violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const blocking = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(blocking).toEqual([]);
    });
  }

  test('the contact form with its errors shown has no serious or critical violations', async ({ page }) => {
    await openPublicPage(page, '/contact');
    await page.getByRole('button', { name: 'Send Message', exact: true }).click();
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});

const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 812 },
] as const;

for (const viewport of viewports) {
  test(`public pages at ${viewport.width} px: screenshots, no sideways scroll`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const [path, name] of [
      ['/', 'public-landing'],
      ['/contact', 'public-contact'],
      ['/help', 'public-help'],
      ['/privacy', 'public-privacy'],
      ['/terms', 'public-terms'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `e2e/screenshots/${name}-${viewport.name}.png`, fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} at ${viewport.width} px must not scroll sideways`).toBeLessThanOrEqual(0);
    }
    if (viewport.name === 'mobile') {
      await openPublicPage(page, '/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await header(page).getByRole('button', { name: 'Open menu', exact: true }).click();
      await page.screenshot({ path: 'e2e/screenshots/public-landing-menu-mobile.png' });
    }
  });
}
