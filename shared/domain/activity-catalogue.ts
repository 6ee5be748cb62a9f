/**
 * The activities a business declares when it is onboarded: the trades of small businesses in
 * Côte d'Ivoire, Senegal, Mali, Burkina Faso, Benin and Togo. Ids are stable (integrations store
 * them); names change freely. A retired or not yet offered entry stays here with `enabled: false`
 * so a business that declared it keeps a meaningful id, while listings and onboarding leave it out.
 */
export interface CatalogueActivity {
  readonly id: string;
  readonly fr: string;
  readonly en: string;
  readonly enabled: boolean;
}

export interface CatalogueCategory extends CatalogueActivity {
  readonly activities: readonly CatalogueActivity[];
}

const on = (id: string, fr: string, en: string): CatalogueActivity => ({ id, fr, en, enabled: true });
const off = (id: string, fr: string, en: string): CatalogueActivity => ({ id, fr, en, enabled: false });

export const activityCatalogue: readonly CatalogueCategory[] = [
  {
    ...on('commerce', 'Commerce', 'Retail and trade'),
    activities: [
      on('commerce.grocery', 'Alimentation générale', 'Grocery store'),
      on('commerce.boutique', 'Boutique de quartier', 'Corner shop'),
      on('commerce.market-stall', 'Étal de marché', 'Market stall'),
      on('commerce.wholesale', 'Grossiste', 'Wholesaler'),
      on('commerce.cosmetics', 'Cosmétiques et produits de beauté', 'Cosmetics and beauty products'),
      on('commerce.loincloth', 'Vente de pagnes et tissus', 'Wax prints and fabrics'),
      on('commerce.ready-to-wear', 'Prêt-à-porter', 'Clothing'),
      on('commerce.phones', 'Téléphones et accessoires', 'Phones and accessories'),
      on('commerce.hardware', 'Quincaillerie', 'Hardware store'),
      on('commerce.building-materials', 'Matériaux de construction', 'Building materials'),
      on('commerce.gas', 'Dépôt de gaz', 'Cooking gas depot'),
      on('commerce.cereals', 'Vente de céréales', 'Grain trading'),
      on('commerce.cashew-cocoa', 'Achat de cajou et cacao', 'Cashew and cocoa buying'),
      on('commerce.auto-parts', 'Pièces détachées', 'Spare parts'),
      on('commerce.stationery', 'Librairie et papeterie', 'Books and stationery'),
      off('commerce.street-fuel', 'Vente de carburant au détail', 'Roadside fuel sales'),
    ],
  },
  {
    ...on('food', 'Restauration et alimentation', 'Food and drink'),
    activities: [
      on('food.maquis', 'Maquis', 'Maquis (open-air restaurant)'),
      on('food.restaurant', 'Restaurant', 'Restaurant'),
      on('food.garbadrome', 'Garbadrome', 'Attiéké and fish stand'),
      on('food.dibiterie', 'Dibiterie', 'Grilled meat stand'),
      on('food.bakery', 'Boulangerie et pâtisserie', 'Bakery and pastry'),
      on('food.street-food', 'Vente de plats à emporter', 'Street food'),
      on('food.juice', 'Jus locaux (bissap, gingembre)', 'Local juices (bissap, ginger)'),
      on('food.butcher', 'Boucherie', 'Butcher'),
      on('food.fishmonger', 'Poissonnerie', 'Fishmonger'),
      on('food.attieke', 'Production d’attiéké', 'Attiéké production'),
      on('food.catering', 'Traiteur', 'Catering'),
      on('food.bar', 'Bar et buvette', 'Bar'),
    ],
  },
  {
    ...on('transport', 'Transport et logistique', 'Transport and logistics'),
    activities: [
      on('transport.taxi', 'Taxi', 'Taxi'),
      on('transport.moto-taxi', 'Moto-taxi', 'Motorbike taxi'),
      on('transport.gbaka', 'Gbaka et minibus', 'Minibus'),
      on('transport.tricycle', 'Tricycle de livraison', 'Cargo tricycle'),
      on('transport.delivery', 'Livraison et coursier', 'Delivery and courier'),
      on('transport.goods', 'Transport de marchandises', 'Freight haulage'),
      on('transport.intercity', 'Transport interurbain', 'Intercity coaches'),
      on('transport.transit', 'Transit et dédouanement', 'Freight forwarding and customs'),
      off('transport.pirogue', 'Transport en pirogue', 'Pirogue ferrying'),
    ],
  },
  {
    ...on('services', 'Services', 'Services'),
    activities: [
      on('services.hairdresser', 'Coiffure', 'Hairdresser'),
      on('services.beauty', 'Salon de beauté et esthétique', 'Beauty salon'),
      on('services.tailor', 'Couture', 'Tailor and dressmaker'),
      on('services.mechanic', 'Garage et mécanique', 'Car repair'),
      on('services.phone-repair', 'Réparation de téléphones', 'Phone repair'),
      on('services.mobile-money', 'Point de transfert d’argent', 'Mobile money agent'),
      on('services.cyber', 'Cybercafé et photocopie', 'Internet café and copying'),
      on('services.laundry', 'Pressing et blanchisserie', 'Laundry and dry cleaning'),
      on('services.electrician', 'Électricité du bâtiment', 'Electrician'),
      on('services.plumber', 'Plomberie', 'Plumber'),
      on('services.carpenter', 'Menuiserie', 'Carpentry and joinery'),
      on('services.welder', 'Soudure et ferronnerie', 'Welding and metalwork'),
      on('services.events', 'Événementiel et location de bâches', 'Events and marquee hire'),
      on('services.photography', 'Photographie', 'Photography'),
      on('services.cleaning', 'Nettoyage', 'Cleaning'),
      on('services.security', 'Gardiennage', 'Security guards'),
      on('services.real-estate', 'Agence immobilière', 'Real estate agency'),
      off('services.lottery', 'Jeux et paris', 'Betting and lottery'),
    ],
  },
  {
    ...on('education', 'Éducation', 'Education'),
    activities: [
      on('education.nursery', 'École maternelle', 'Nursery school'),
      on('education.primary', 'École primaire', 'Primary school'),
      on('education.secondary', 'Collège et lycée', 'Secondary school'),
      on('education.vocational', 'Formation professionnelle', 'Vocational training'),
      on('education.tutoring', 'Cours à domicile', 'Home tutoring'),
      on('education.driving', 'Auto-école', 'Driving school'),
      on('education.computing', 'Centre de formation informatique', 'Computer training centre'),
    ],
  },
  {
    ...on('health', 'Santé', 'Health'),
    activities: [
      on('health.pharmacy', 'Pharmacie', 'Pharmacy'),
      on('health.clinic', 'Clinique et centre de santé', 'Clinic and health centre'),
      on('health.laboratory', 'Laboratoire d’analyses', 'Medical laboratory'),
      on('health.optician', 'Opticien', 'Optician'),
      on('health.dentist', 'Cabinet dentaire', 'Dentist'),
      on('health.midwife', 'Sage-femme', 'Midwife'),
      off('health.traditional', 'Médecine traditionnelle', 'Traditional medicine'),
    ],
  },
  {
    ...on('agriculture', 'Agriculture et élevage', 'Farming and livestock'),
    activities: [
      on('agriculture.market-gardening', 'Maraîchage', 'Market gardening'),
      on('agriculture.poultry', 'Aviculture', 'Poultry farming'),
      on('agriculture.livestock', 'Élevage de bétail', 'Livestock farming'),
      on('agriculture.fishing', 'Pêche', 'Fishing'),
      on('agriculture.processing', 'Transformation agroalimentaire', 'Food processing'),
      on('agriculture.inputs', 'Intrants agricoles', 'Farm inputs'),
      on('agriculture.cooperative', 'Coopérative agricole', 'Farming cooperative'),
    ],
  },
  {
    ...on('hospitality', 'Hôtellerie et loisirs', 'Hospitality and leisure'),
    activities: [
      on('hospitality.hotel', 'Hôtel', 'Hotel'),
      on('hospitality.guesthouse', 'Résidence meublée', 'Furnished apartments'),
      on('hospitality.travel-agency', 'Agence de voyage', 'Travel agency'),
      on('hospitality.gym', 'Salle de sport', 'Gym'),
    ],
  },
  {
    ...on('crafts', 'Artisanat', 'Crafts'),
    activities: [
      on('crafts.jewellery', 'Bijouterie', 'Jewellery'),
      on('crafts.leather', 'Maroquinerie et cordonnerie', 'Leather goods and shoe repair'),
      on('crafts.sculpture', 'Sculpture et objets d’art', 'Sculpture and art'),
      on('crafts.pottery', 'Poterie', 'Pottery'),
      on('crafts.dyeing', 'Teinture (bogolan, indigo)', 'Dyeing (bogolan, indigo)'),
    ],
  },
  {
    ...off('mining', 'Orpaillage', 'Artisanal gold mining'),
    activities: [on('mining.gold', 'Comptoir d’or', 'Gold buying counter')],
  },
];
