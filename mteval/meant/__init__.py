"""The MEANT family: semantic-frame MT metrics (Lo & Wu)."""
