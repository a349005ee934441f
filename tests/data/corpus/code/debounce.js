// Debounce: postpone calling `fn` until `waitMs` milliseconds have passed without another call.
// Typical use: a search box that should query the server only after typing stops.
export function debounce(fn, waitMs) {
  let timer = null;
  return function debounced(...args) {
    clearTimeout(timer);
    timer = setTimeout(() => fn.apply(this, args), waitMs);
  };
}

const input = document.querySelector("#search");
input.addEventListener("input", debounce((event) => runSearch(event.target.value), 300));
