// A beneficiary entity the document accepts (an individual with a valid CPF), for the tests that save one.
export const person = {
  type: 'INDIVIDUAL',
  firstName: 'Maria',
  lastName: 'Souza',
  identificationDocument: { type: 'CPF', value: '52998224725', country: 'BR' },
  birthDate: '1990-04-12',
  address: { addressLine1: 'Rua Augusta, 500', addressLine2: null, city: 'Sao Paulo', state: 'SP', country: 'BR', postalCode: '01304-000' },
};
