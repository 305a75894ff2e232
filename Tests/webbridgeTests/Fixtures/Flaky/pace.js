// The page's work before it installs its receiver, in milliseconds: none on a quiet machine.
window.pageWork = 0;
