/** A pasted guide the offline writer makes a home-composting article from (the dashboards' browser tests). */
export const COMPOST_GUIDE = `# Home composting

## What home composting is
Home composting turns kitchen scraps and garden waste into dark, crumbly soil improver. A home composting bin works through bacteria, fungi and worms that break down organic matter. Most home composting bins produce finished compost in six to twelve months. A balanced compost heap does not smell, because air reaches every part of it.

## Greens and browns
Home composting needs a mix of green and brown material. Greens are fresh materials such as vegetable peelings, coffee grounds and grass cuttings, and they supply nitrogen. Browns are dry materials such as cardboard, paper and autumn leaves, and they supply carbon. A good home composting mix has roughly equal volumes of greens and browns. Too many greens make a compost heap wet and smelly, while too many browns slow it down.

## Looking after a compost heap
Turning a compost heap every few weeks lets air in and speeds up home composting. A compost heap should feel as damp as a wrung-out sponge. Water a dry compost heap in summer, and add cardboard to a wet one in winter. Chopping large stems and branches into small pieces helps a compost heap break them down faster.

## What not to compost
Meat, fish and dairy products attract rats and should stay out of a home composting bin. Cooked food with oil also attracts pests to a compost heap. Diseased plants and perennial weed roots can survive home composting and spread in the garden. Glossy magazines and coal ash do not belong in a compost heap either.

## Using finished compost
Finished compost is dark brown, crumbly and smells of a forest floor. Gardeners spread finished compost as a mulch around plants or dig it into beds before planting. A layer of finished compost five centimetres thick improves how well sandy soil holds water. Sieved compost can also be mixed with soil for seedlings and pots.

## Choosing a home composting bin
A closed home composting bin keeps rain off the heap and holds its warmth through the winter. An open compost heap suits large gardens with plenty of leaves and prunings. A home composting bin works best on bare soil in a sunny or half-shaded spot, where worms can move in from below. Two compost bins side by side let one heap finish while the other is filled.

## Composting in small spaces
A wormery suits home composting on a balcony, because composting worms turn kitchen scraps into compost in a closed box. A bokashi bucket ferments food waste in the kitchen before it goes into a compost heap or a garden bed. Home composting in small spaces works with small amounts of waste added often, chopped into small pieces.
`;
