The Alder River flooded Eastvale on Tuesday after heavy rain. Some 3,000 residents were evacuated and boat crews rescued people from rooftops. Two bridges were washed away, but there were no deaths.
