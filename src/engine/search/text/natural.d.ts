/** Local declaration for the one `natural` module we deep-import (its index loads DB clients). */
declare module 'natural/lib/natural/stemmers/porter_stemmer.js' {
  const PorterStemmer: { stem(token: string): string };
  export default PorterStemmer;
}
