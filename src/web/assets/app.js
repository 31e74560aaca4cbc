// Progressive enhancement only: every page works without this file.
// - [data-copy-target]: copies the named field's value and says so.
document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-copy-target]');
  if (!button) return;
  const field = document.getElementById(button.getAttribute('data-copy-target'));
  if (!field) return;
  const done = (text) => {
    const status = document.getElementById(button.getAttribute('aria-describedby') || '');
    button.textContent = text;
    if (status) status.textContent = text === 'Copied' ? 'Copied to the clipboard.' : '';
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 2000);
  };
  field.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(
      () => done('Copied'),
      () => done('Press Ctrl+C'),
    );
  } else {
    try {
      done(document.execCommand('copy') ? 'Copied' : 'Press Ctrl+C');
    } catch {
      done('Press Ctrl+C');
    }
  }
});
