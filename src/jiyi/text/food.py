"""Words of eating and drinking, in Chinese and English: what a query about food, or a change of it, says."""

from __future__ import annotations

import re

#: a word of food or drink, or of eating, cooking or a meal (not 酒店: a hotel)
FOOD = re.compile(r"(?i)吃|喝|饭|菜|餐|(?<!血)糖(?!尿)|煮|炖|烤|炒|做饭|下厨|食谱|零食|甜点|甜品|点心|小吃|蛋糕|面包|糕点|奶茶|咖啡|酒(?!店)|水果|"
                   r"火锅|烧烤|撸串|烤串|串串|饮料|宵夜|夜宵|外卖|饮|食|"
                   r"\b(?:eat|eating|drink|food|snacks?|meals?|dinner|lunch|breakfast|brunch|recipes?|cook(?:ing)?|bake|"
                   r"baking|dessert|restaurant|menu|groceries|grocery|potluck|bbq|barbecue|cake|cookies?|bakery|pastr(?:y|ies)|"
                   r"bread|caf[eé]|coffee|tea|wine|beer|cocktails?|pizza|sushi|burgers?|sandwich(?:es)?|takeout|takeaway|"
                   r"picnic|buffet|dumplings?|smoothies?|ice\s+cream|chocolate|candy|sweets|treats?)\b")
