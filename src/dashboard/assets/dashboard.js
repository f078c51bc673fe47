/* global document, window, navigator, Element */
// The dashboard works without this file; it only adds the copy buttons.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  const text = source.textContent.trim();
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard access (an insecure origin, or permission refused): select the text so Ctrl+C copies it.
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  button.textContent = 'Copied';
  setTimeout(() => (button.textContent = 'Copy'), 2000);
});
