// The page GET /auth/v1/authorize?provider=google shows locally instead of sending the browser to
// Google: a Google-style account chooser listing the local users who already have a google
// identity, plus a form for a new one. Each choice posts to /auth/v1/callback with the one-time
// `state` the authorize call issued (oauth-state.ts), which also fixes where the choice returns.

export interface ChooserAccount {
  email: string;
  name: string | null;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const AVATAR_COLOURS = ['#1a73e8', '#d93025', '#188038', '#e37400', '#a142f4', '#007b83'];

function avatar(account: ChooserAccount): string {
  const label = (account.name || account.email).trim();
  const initial = label.charAt(0).toUpperCase() || '?';
  let hash = 0;
  for (const ch of account.email) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const colour = AVATAR_COLOURS[hash % AVATAR_COLOURS.length] ?? '#1a73e8';
  return `<span class="avatar" style="background:${colour}">${escapeHtml(initial)}</span>`;
}

export function renderGoogleChooser(options: {
  accounts: ChooserAccount[];
  state: string;
  callbackPath: string;
  cancelUrl: string;
}): string {
  const stateField = `<input type="hidden" name="state" value="${escapeHtml(options.state)}" />`;
  const accountItems = options.accounts
    .map(
      (account) => `
        <li>
          <form method="post" action="${escapeHtml(options.callbackPath)}">
            ${stateField}
            <input type="hidden" name="email" value="${escapeHtml(account.email)}" />
            <input type="hidden" name="name" value="${escapeHtml(account.name ?? '')}" />
            <button type="submit" class="account">
              ${avatar(account)}
              <span class="who">
                ${account.name ? `<span class="name">${escapeHtml(account.name)}</span>` : ''}
                <span class="email">${escapeHtml(account.email)}</span>
              </span>
            </button>
          </form>
        </li>`,
    )
    .join('');

  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Sign in – Google accounts (local stand-in)</title>
  <style>
    * { box-sizing: border-box; }
    body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center;
      background: #f0f4f9; font-family: 'Google Sans', Roboto, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; color: #1f1f1f; }
    .card { width: 100%; max-width: 450px; background: #fff; border-radius: 28px; padding: 36px 40px 28px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
    .logo { font-size: 26px; font-weight: 500; letter-spacing: -0.5px; }
    .logo span:nth-child(1), .logo span:nth-child(4) { color: #4285f4; }
    .logo span:nth-child(2), .logo span:nth-child(6) { color: #ea4335; }
    .logo span:nth-child(3) { color: #fbbc05; }
    .logo span:nth-child(5) { color: #34a853; }
    h1 { font-size: 24px; font-weight: 400; margin: 20px 0 8px; }
    .subtitle { margin: 0 0 20px; font-size: 16px; }
    .subtitle strong { color: #0b57d0; font-weight: 500; }
    .notice { margin: 0 0 20px; padding: 10px 14px; border-radius: 12px; background: #fef7e0; color: #5f4b00; font-size: 13px; line-height: 1.5; }
    ul { list-style: none; margin: 0; padding: 0; border-top: 1px solid #e3e3e3; }
    li { border-bottom: 1px solid #e3e3e3; }
    li form { margin: 0; }
    .account { width: 100%; display: flex; align-items: center; gap: 12px; padding: 12px 8px; border: 0; background: none;
      text-align: left; cursor: pointer; font: inherit; color: inherit; }
    .account:hover, .account:focus-visible { background: #f2f6fc; outline: none; }
    .avatar { flex: none; width: 32px; height: 32px; border-radius: 50%; color: #fff; display: inline-flex; align-items: center;
      justify-content: center; font-size: 15px; font-weight: 500; }
    .who { display: flex; flex-direction: column; min-width: 0; }
    .name { font-size: 14px; font-weight: 500; }
    .email { font-size: 13px; color: #444746; overflow: hidden; text-overflow: ellipsis; }
    .empty { padding: 14px 8px; font-size: 14px; color: #444746; }
    details { margin-top: 4px; }
    summary { display: flex; align-items: center; gap: 12px; padding: 12px 8px; cursor: pointer; font-size: 14px; font-weight: 500; list-style: none; }
    summary::-webkit-details-marker { display: none; }
    .plus { width: 32px; height: 32px; border-radius: 50%; border: 1px solid #c4c7c5; display: inline-flex; align-items: center; justify-content: center; font-size: 18px; color: #444746; }
    .new-account { display: grid; gap: 12px; padding: 8px 8px 4px; }
    label { display: grid; gap: 4px; font-size: 13px; color: #444746; }
    input[type=email], input[type=text] { padding: 12px 14px; border: 1px solid #747775; border-radius: 8px; font: inherit; font-size: 15px; }
    input:focus { outline: 2px solid #0b57d0; border-color: transparent; }
    .actions { display: flex; justify-content: flex-end; margin-top: 4px; }
    .primary { padding: 10px 24px; border: 0; border-radius: 20px; background: #0b57d0; color: #fff; font: inherit; font-size: 14px; font-weight: 500; cursor: pointer; }
    .primary:hover { background: #0a4dbb; }
    .footer { margin-top: 20px; font-size: 12px; color: #444746; line-height: 1.5; }
    .footer a { color: #0b57d0; text-decoration: none; }
  </style>
</head>
<body>
  <main class="card">
    <div class="logo" aria-label="Google"><span>G</span><span>o</span><span>o</span><span>g</span><span>l</span><span>e</span></div>
    <h1>Choose an account</h1>
    <p class="subtitle">to continue to <strong>FareBack</strong></p>
    <p class="notice" role="note">Local development stand-in for Google. No Google account is used: choosing an account here signs you in to the local FareBack stack only.</p>
    <ul aria-label="Choose an account to continue to FareBack">${accountItems || '<li class="empty">No local Google accounts yet.</li>'}
    </ul>
    <details${options.accounts.length === 0 ? ' open' : ''}>
      <summary><span class="plus" aria-hidden="true">+</span>Use another account</summary>
      <form method="post" action="${escapeHtml(options.callbackPath)}" class="new-account">
        ${stateField}
        <label>Email<input type="email" name="email" required autocomplete="off" placeholder="you@example.com" /></label>
        <label>Name<input type="text" name="name" autocomplete="off" placeholder="Your name" /></label>
        <div class="actions"><button type="submit" class="primary">Continue</button></div>
      </form>
    </details>
    <p class="footer">To continue, Google would share your name, email address and profile picture with FareBack.
      <a href="${escapeHtml(options.cancelUrl)}">Cancel</a></p>
  </main>
</body>
</html>`;
}
